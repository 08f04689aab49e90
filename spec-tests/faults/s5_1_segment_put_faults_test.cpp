// A segment put whose process dies where it waits for the harness (issue 35,
// docs/faults.md): at its content hasher, where the candidate takes an
// injected one, and at each put hook point, where it declares them. Every
// such point comes before the put commits, so SSP2's atomic put (§5.1: a put
// that fails writes nothing, and publications of the same bytes are never
// lost) asks that a new process find the database byte for byte as before,
// the other publications of the bytes intact, and the same put then publish.
// A put whose answer is lost needs no callback (issue 49): its process is
// killed after it answered, and a new process must find the publication it
// answered, and publish it once when the client puts the same bytes again.
#include <gmock/gmock.h>

#include <algorithm>
#include <set>

#include "harness/errors/candidate_killed.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/faults/fault_plan_tests.hpp"
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
    kill_ = optional_grant(candidate(), Capability::process_kill);
  }

  // Plays `plan`: the bytes are published once (digest-a), a clean put
  // publishes them again (digest-clean) and lists the points, then every
  // chosen point faults a put of a publication of its own (digest-r).
  void play(const FaultPlan& plan) {
    if (const auto why = unplayable_check(plan, checks_played_for(plan.fault))) FAIL() << *why;
    const Bytes bytes = payload("faulted");
    expected_ = {"digest-a"};
    store().put(base_metadata(), bytes, kNow);
    const std::vector<std::string> reached = clean_run(plan, bytes);
    FaultSweepStart sweep = start_fault_sweep(plan, backend(), reached, "put");
    if (sweep.skip) {
      GTEST_SKIP() << *sweep.skip << ": the candidate declares neither an injected hasher nor hooks";
    }
    int round = 1;
    for (const std::string& point : sweep.points) {
      SCOPED_TRACE(plan.file + ": round " + std::to_string(round) +
                   (plan.fault == FaultKind::kill ? ", killed at " : ", its answer lost at ") +
                   point);
      const SegmentMetadata metadata =
          with_digest(base_metadata(), "digest-" + std::to_string(round++));
      const std::string before = database().dump_all_tables();
      if (plan.fault == FaultKind::kill) {
        kill_put_at(point, metadata, bytes);
      } else {
        lose_the_answer_of(metadata, bytes, claims(plan, FaultCheck::whole_or_none));
      }
      if (HasFailure()) return;
      const std::string after = database().dump_all_tables();
      if (claims(plan, FaultCheck::untouched_before_commit) && plan.fault == FaultKind::kill) {
        EXPECT_TRUE(after == before) << "killed at " << point
                                     << ", before the put could commit, the database changed:\n"
                                     << dump_difference(before, after);
      }
      // The same put again: it publishes once, and no publication was lost.
      const SegmentRecord record = store().put(metadata, bytes, kNow);
      expected_.insert(metadata.scope_digest);
      if (claims(plan, FaultCheck::applies_once)) {
        EXPECT_EQ(published_digests(record), every_expected_digest())
            << "the put, sent again, did not leave every publication of the bytes, each once";
      }
      if (HasFailure()) return;
      sweep.record.points.push_back({point, after != before, "published"});
    }
    FaultSweeps::of_this_run().record(std::move(sweep.record));
  }

 private:
  // What the put engine can check after a fault of `kind`: a plan claims
  // some of these, and only what it claims is played (claims()).
  static std::vector<FaultCheck> checks_played_for(FaultKind kind) {
    if (kind == FaultKind::lose_answer) return {FaultCheck::whole_or_none, FaultCheck::applies_once};
    return {FaultCheck::untouched_before_commit, FaultCheck::whole_or_none,
            FaultCheck::applies_once};
  }

  // The points a clean put of `bytes` (digest-clean) passes.
  std::vector<std::string> clean_run(const FaultPlan& plan, const Bytes& bytes) {
    expected_.insert("digest-clean");
    if (plan.fault == FaultKind::lose_answer) {
      store().put(with_digest(base_metadata(), "digest-clean"), bytes, kNow);
      return {"answer"};
    }
    SegmentPutPoints clean;
    open(clean.instrument({}, hasher_, hooks_))
        ->put(with_digest(base_metadata(), "digest-clean"), bytes, kNow);
    return clean.reached();
  }

  // Every digest published so far, sorted: each must be there once.
  std::vector<std::string> every_expected_digest() const {
    return {expected_.begin(), expected_.end()};
  }

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

  // Puts `metadata` and drops the answer, then opens a new process on the
  // same database (the put's own is killed, where the candidate can be, so
  // that nothing it kept in memory answers): with `whole_or_none`, the
  // publication answered must be found there, with every earlier one.
  void lose_the_answer_of(const SegmentMetadata& metadata, const Bytes& bytes,
                          bool whole_or_none) {
    const SegmentRecord answered = store().put(metadata, bytes, kNow);
    ASSERT_THAT(published_digests(answered), ::testing::Contains(metadata.scope_digest))
        << "the put whose answer is then lost";
    if (kill_) candidate().kill_process_of(store());
    reopen();
    if (!whole_or_none) return;
    const std::optional<StoredSegment> found = store().get(answered.segment_id);
    ASSERT_TRUE(found.has_value()) << "the put answered, but a new process finds no record of "
                                   << answered.segment_id;
    std::set<std::string> published = expected_;
    published.insert(metadata.scope_digest);
    EXPECT_EQ(published_digests(found->record),
              std::vector<std::string>(published.begin(), published.end()))
        << "the put answered, but a new process does not find every publication of the bytes";
  }

  std::optional<CapabilityGrant> hasher_;
  std::optional<CapabilityGrant> hooks_;
  std::optional<CapabilityGrant> kill_;
  std::set<std::string> expected_;  // the digests published so far
};

// The plans of segments.put.
[[maybe_unused]] const bool kSegmentPutPlansRegistered = defer_fault_plan_tests(
    "SegmentPutFaults", {"segments.put"},
    [](const FaultPlan& plan, Backend backend) -> ::testing::Test* {
      return new FaultPlanTest<SegmentPutFaults>(plan, backend);
    });

}  // namespace
}  // namespace ssp::harness
