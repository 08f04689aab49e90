// A segment put whose process dies where it waits for the harness (issue 35,
// docs/faults.md): at its content hasher, where the candidate takes an
// injected one, and at each put hook point, where it declares them. Every
// such point comes before the put commits, so SSP2's atomic put (§5.1: a put
// that fails writes nothing, and publications of the same bytes are never
// lost) asks that a new process find the database byte for byte as before,
// the other publications of the bytes intact, and the same put then publish.
#include <gmock/gmock.h>

#include <algorithm>
#include <set>

#include "harness/errors/candidate_killed.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/faults/fault_sweep.hpp"
#include "harness/faults/segment_put_points.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/dump_difference.hpp"

namespace ssp::harness {
namespace {

// The scope digests of `record`'s publications, sorted.
std::vector<std::string> published_digests(const SegmentRecord& record) {
  std::vector<std::string> digests;
  for (const SegmentPublication& publication : record.publications) {
    digests.push_back(publication.metadata.scope_digest);
  }
  std::sort(digests.begin(), digests.end());
  return digests;
}

class SegmentPutFaults : public SegmentStoreTest {
 protected:
  void SetUp() override {
    SegmentStoreTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    hasher_ = optional_grant(candidate(), Capability::injected_hasher);
    hooks_ = optional_grant(candidate(), Capability::hooks);
  }

  // Plays plan `name`: the bytes are published once (digest-a), a clean put
  // publishes them again (digest-clean) and lists the points, then every
  // chosen point kills a put of a publication of its own (digest-r).
  void play(const std::string& name) {
    const FaultPlan plan = load_fault_plan(fault_plans_directory(), name);
    ASSERT_EQ(fault_checks_text(plan.checks),
              fault_checks_text({FaultCheck::untouched_before_commit, FaultCheck::whole_or_none,
                                 FaultCheck::applies_once}))
        << plan.file << ": the plan's checks are not the ones a put's kill is played with";
    const Bytes bytes = payload("faulted");
    std::set<std::string> expected = {"digest-a"};
    store().put(base_metadata(), bytes, kNow);
    std::vector<std::string> reached;
    {
      SegmentPutPoints clean;
      open(clean.instrument({}, hasher_, hooks_))
          ->put(with_digest(base_metadata(), "digest-clean"), bytes, kNow);
      expected.insert("digest-clean");
      reached = clean.reached();
    }
    FaultSweepStart sweep = start_fault_sweep(plan, backend(), reached, "put");
    if (sweep.skip) {
      GTEST_SKIP() << *sweep.skip << ": the candidate declares neither an injected hasher nor hooks";
    }
    int round = 1;
    for (const std::string& point : sweep.points) {
      SCOPED_TRACE(plan.file + ": round " + std::to_string(round) + ", killed at " + point);
      const std::string digest = "digest-" + std::to_string(round++);
      const std::string before = database().dump_all_tables();
      kill_put_at(point, with_digest(base_metadata(), digest), bytes);
      if (HasFailure()) return;
      reopen();  // a new process on the same database
      const std::string after = database().dump_all_tables();
      EXPECT_TRUE(after == before) << "killed at " << point
                                   << ", before the put could commit, the database changed:\n"
                                   << dump_difference(before, after);
      // The same put again: it publishes, and no publication was lost.
      const SegmentRecord record = store().put(with_digest(base_metadata(), digest), bytes, kNow);
      expected.insert(digest);
      EXPECT_EQ(published_digests(record), std::vector<std::string>(expected.begin(), expected.end()))
          << "the put, sent again, did not leave every publication of the bytes";
      if (HasFailure()) return;
      sweep.record.points.push_back({point, after != before, "published"});
    }
    FaultSweeps::of_this_run().record(std::move(sweep.record));
  }

 private:
  // Puts `metadata` on a store of its own and kills its process at `point`.
  void kill_put_at(const std::string& point, const SegmentMetadata& metadata, const Bytes& bytes) {
    SegmentPutPoints points;
    points.kill_at(point);
    const auto killed = open(points.instrument({}, hasher_, hooks_));
    try {
      const SegmentRecord record = killed->put(metadata, bytes, kNow);
      ADD_FAILURE() << "the put never reached " << point
                    << ", which a clean put of the same bytes passed; it answered "
                    << ::testing::PrintToString(record);
    } catch (const CandidateKilled&) {
    }
  }

  std::optional<CapabilityGrant> hasher_;
  std::optional<CapabilityGrant> hooks_;
};
INSTANTIATE_TEST_SUITE_P(, SegmentPutFaults, ::testing::Values(Backend::sqlite, Backend::postgres),
                         backend_param_name);

TEST_P(SegmentPutFaults, FAULT_7_ASegmentPutKilledAtAnyCallbackLeavesTheStoreAsItWasThenPublishes) {
  record_spec("§5.1", "FAULT-7");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::process_kill);
  play("KillSegmentPut");
}

}  // namespace
}  // namespace ssp::harness
