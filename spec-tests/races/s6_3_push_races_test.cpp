// The races (SSP2 §6.3, §6.8 pushes and commands, §5.1 segment puts, §2.4
// servers starting; design notes push.md §3.2, §6.2), each a schedule under
// spec-tests/races/schedules/ played through the candidate: one test per
// permutation and backend, named after its requirement, its schedule and its
// label, e.g. Race.PUSH_R10_S1_LostUpdate_Locked/postgres.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/gates/backend_gate.hpp"
#include "harness/gates/capability_gate.hpp"
#include "harness/races/races_doc.hpp"
#include "harness/races/schedule.hpp"
#include "harness/races/schedule_runner.hpp"
#include "harness/data/deferred_registration.hpp"

namespace ssp::harness {
namespace {

// How long a race waits for a step, or for the database to show it waiting,
// before it calls it a hang. A watchdog: nothing is ordered by it.
constexpr std::chrono::seconds kRaceWatchdog{20};

// The schedules of this run, parsed once (the tests hold pointers into it).
const std::vector<Schedule>& schedules() {
  static const std::vector<Schedule> loaded = load_schedules(schedules_directory());
  return loaded;
}

class Race : public ::testing::Test {
 public:
  Race(const Schedule& schedule, const Permutation& permutation, Backend backend)
      : schedule_(schedule), permutation_(permutation), backend_(backend) {}

  void TestBody() override {
    std::string sections;
    for (const auto& section : schedule_.sections) {
      sections += (sections.empty() ? "" : ", ") + section;
    }
    record_spec(sections, permutation_.requirement);
    Candidate& candidate = current_candidate();
    const std::vector<Capability> needed = capabilities_needed(schedule_, permutation_);
    for (const Capability capability : needed) SSP_REQUIRE_CAPABILITY(candidate, capability);
    SSP_SKIP_UNLESS_BACKEND_READY(candidate, backend_);
    const auto database = create_test_database(backend_);
    ASSERT_NE(database, nullptr);
    // Compiled by the candidate where the schedule works on rows.
    const bool on_rows =
        std::find(needed.begin(), needed.end(), Capability::schema) != needed.end();
    const storage::CompiledSchema schema =
        on_rows ? compiled(push_schema()) : storage::CompiledSchema{};
    const storage::CompiledSchema next_schema =
        on_rows ? compiled(next_push_schema()) : storage::CompiledSchema{};
    // A hook goes in only where the schedule parks: through a driver each
    // hook point is a callback round trip.
    const auto grant_if_needed = [&](Capability capability) -> std::optional<CapabilityGrant> {
      if (std::find(needed.begin(), needed.end(), capability) == needed.end()) return std::nullopt;
      return grant(candidate, capability);
    };
    const PlayedPermutation played =
        play_permutation(schedule_, permutation_,
                         ScheduleStage{candidate, *database, schema, next_schema,
                                       grant_if_needed(Capability::push_hooks),
                                       grant_if_needed(Capability::hooks), kRaceWatchdog});

    std::string transcript = permutation_.written + "\n";
    for (const auto& line : played.transcript) transcript += "  " + line + "\n";
    RaceOutcomes::of_this_run().record(RaceOutcome{schedule_.name, permutation_.requirement,
                                                   permutation_.label, backend_, played.observed,
                                                   played.problems.empty()});
    for (const auto& problem : played.problems) {
      ADD_FAILURE() << schedule_.file << ": " << problem << "\n" << transcript;
    }
  }

 private:
  const Schedule& schedule_;
  const Permutation& permutation_;
  const Backend backend_;
};

// After the last test: docs/races.md checked or written, as SSP_RACES_DOC asks.
class RacesDocEnvironment final : public ::testing::Environment {
 public:
  void TearDown() override {
    if (const auto problem = settle_races_doc(schedules())) ADD_FAILURE() << *problem;
  }
};

std::string identifier(std::string text) {
  for (char& c : text) {
    if (c == '-') c = '_';
  }
  return text;
}

// Registers a test per permutation and backend, once main() knows where the
// data is (deferred_registration.hpp). A schedule file that does not parse
// registers one failing test that says why.
[[maybe_unused]] const bool registered = defer_registration([] {
  try {
    for (const auto& schedule : schedules()) {
      for (const auto& permutation : schedule.permutations) {
        for (const Backend backend : permutation.backends) {
          const std::string name = identifier(permutation.requirement) + "_" + schedule.name +
                                   "_" + permutation.label + "/" +
                                   std::string(backend_name(backend));
          ::testing::RegisterTest(
              "Race", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
              [&schedule, &permutation, backend]() -> ::testing::Test* {
                return new Race(schedule, permutation, backend);
              });
        }
      }
    }
    ::testing::AddGlobalTestEnvironment(new RacesDocEnvironment);  // gtest owns it
  } catch (const std::exception& error) {
    const std::string why = error.what();
    ::testing::RegisterTest("Race", "PUSH_RACES_ScheduleFilesParse", nullptr, nullptr, __FILE__,
                            __LINE__, [why]() -> ::testing::Test* {
                              struct Unparsed : ::testing::Test {
                                explicit Unparsed(std::string text) : why(std::move(text)) {}
                                void TestBody() override { FAIL() << why; }
                                std::string why;
                              };
                              return new Unparsed(why);
                            });
  }
});

}  // namespace
}  // namespace ssp::harness
