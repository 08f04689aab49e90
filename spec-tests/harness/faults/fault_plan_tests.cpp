#include "harness/faults/fault_plan_tests.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "harness/data/deferred_registration.hpp"

namespace ssp::harness {
namespace {

constexpr Backend kSqlBackends[] = {Backend::sqlite, Backend::postgres};

// A test that fails saying why the plans did not load.
class PlansDidNotLoad final : public ::testing::Test {
 public:
  explicit PlansDidNotLoad(std::string why) : why_(std::move(why)) {}
  void TestBody() override { FAIL() << why_; }

 private:
  std::string why_;
};

// The number of a requirement id ("FAULT-12": 12), for ordering the tests
// as their rows are numbered.
int requirement_number(const std::string& id) {
  const std::size_t dash = id.rfind('-');
  return dash == std::string::npos ? 0 : std::atoi(id.c_str() + dash + 1);
}

void register_test(const std::string& suite, const std::string& name, Backend backend,
                   const std::string& file, std::function<::testing::Test*()> make) {
  const std::string backend_text(backend_name(backend));
  const std::string full = name + "/" + backend_text;
  ::testing::RegisterTest(suite.c_str(), full.c_str(), nullptr, backend_text.c_str(),
                          file.c_str(), 1, std::move(make));
}

}  // namespace

std::vector<Capability> capabilities_needed(const FaultPlan& plan) {
  std::vector<Capability> needed;
  if (plan.call == "command.run") needed.push_back(Capability::commands);
  if (plan.fault == FaultKind::kill) needed.push_back(Capability::process_kill);
  return needed;
}

bool defer_fault_plan_tests(std::string suite, std::set<std::string> calls,
                            FaultPlanTestMaker make, std::vector<FaultSweepJudge> judges) {
  return defer_registration([suite = std::move(suite), calls = std::move(calls),
                             make = std::move(make), judges = std::move(judges)] {
    std::shared_ptr<const std::vector<FaultPlan>> plans;
    try {
      plans = std::make_shared<const std::vector<FaultPlan>>(
          load_fault_plans(fault_plans_directory()));
    } catch (const std::exception& error) {
      const std::string why = error.what();
      ::testing::RegisterTest(suite.c_str(), "FAULT_PLANS_PlanFilesLoad", nullptr, nullptr,
                              __FILE__, __LINE__,
                              [why]() -> ::testing::Test* { return new PlansDidNotLoad(why); });
      return;
    }
    std::vector<const FaultPlan*> played;
    for (const FaultPlan& plan : *plans) {
      if (calls.contains(plan.call)) played.push_back(&plan);
    }
    std::stable_sort(played.begin(), played.end(), [](const FaultPlan* a, const FaultPlan* b) {
      return requirement_number(a->requirement) < requirement_number(b->requirement);
    });
    // `plans` lives as long as the tests that keep a pointer into it.
    for (const FaultPlan* plan : played) {
      for (const Backend backend : kSqlBackends) {
        register_test(suite, fault_plan_test_name(*plan), backend, plan->file,
                      [plans, plan, make, backend] { return make(*plan, backend); });
      }
    }
    for (const FaultSweepJudge& judge : judges) {
      for (const Backend backend : kSqlBackends) {
        register_test(suite, judge.name, backend, __FILE__,
                      [make = judge.make, backend] { return make(backend); });
      }
    }
  });
}

}  // namespace ssp::harness
