// The put contract every backend shares (segment_store.hpp and the
// PutHookPoint contract in segment_store_options.hpp): a read-only store
// refuses put (SC-1), and each hook point comes at the same place, holding
// the same locks, on every backend (SC-2). What a parked put holds is
// observed here by another put on the same store and by the harness's own
// connection; the same locks seen from other connections, with the waiting
// read from the database, are races: spec-tests/races/schedules/put_locks.schedule.
#include <gmock/gmock.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/gates/put_gate.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/values/safe_integer.hpp"

namespace ssp::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Segment ids (§5.1) of two payloads below, from outside the code under test:
// `printf '%s' contended | sha256sum` and the same for `new`.
const std::string kContendedId =
    "sha256:b9042211155d4280c62c587b8f5d38f2ecaf5dee3b92cb135cf565c97c82f683";
const std::string kNewId =
    "sha256:11507a0e2f5e69d5dfa40a62a1bd7b6ee57e6bcd85c67c9b8431b36fff21c437";

std::string point_name(PutHookPoint point) {
  switch (point) {
    case PutHookPoint::before_begin: return "before_begin";
    case PutHookPoint::after_read: return "after_read";
    case PutHookPoint::before_commit: return "before_commit";
  }
  return "unknown";
}

// The hook points a store's puts pass, in order, with the thread of each.
class HookLog {
 public:
  std::function<void(PutHookPoint)> hook() {
    return [this](PutHookPoint point) {
      std::lock_guard lock(mutex_);
      points_.push_back(point_name(point));
      threads_.push_back(std::this_thread::get_id());
    };
  }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    threads_.clear();
    return std::exchange(points_, {});
  }
  bool all_on(std::thread::id thread) {
    std::lock_guard lock(mutex_);
    return std::all_of(threads_.begin(), threads_.end(),
                       [thread](std::thread::id seen) { return seen == thread; });
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> points_;
  std::vector<std::thread::id> threads_;
};

// Parks one put at `point`: the first put of the store to get there after
// start(). Earlier puts (setup) and later ones (the probes) pass through.
class ParkedPut {
 public:
  ParkedPut(const CapabilityGrant& hooks, PutHookPoint point)
      : point_(point), gate_(hooks, point), park_(gate_.hook()) {}
  ~ParkedPut() { finish_quietly(); }

  // For the store's SegmentStoreOptions::put_hook.
  std::function<void(PutHookPoint)> hook() {
    return [this](PutHookPoint point) {
      if (point == point_ && armed_ && !taken_.exchange(true)) park_(point);
    };
  }

  // Runs `put` on its own thread; it parks at the point.
  void start(std::function<void()> put) {
    armed_ = true;
    thread_ = std::thread([this, put = std::move(put)] {
      try {
        put();
      } catch (...) {
        failure_ = std::current_exception();
      }
      // A put that ended without parking (a candidate that threw, or has no
      // hook points) never arrives: reached() answers false at once.
      gate_.give_up();
    });
  }
  [[nodiscard]] bool reached() { return gate_.wait_until_reached(); }
  void release() { gate_.release(); }
  // Lets the put go on and waits for it; rethrows its failure.
  void finish() {
    finish_quietly();
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  void finish_quietly() {
    gate_.release();
    if (thread_.joinable()) thread_.join();
  }

  const PutHookPoint point_;
  PutGate gate_;
  std::function<void(PutHookPoint)> park_;
  std::atomic<bool> armed_{false};
  std::atomic<bool> taken_{false};
  std::thread thread_;
  std::exception_ptr failure_;
};

// How `put`, made while `parked` waits at its point, ended: "done",
// "StorageError", or what else happened. A put still blocked after the
// watchdog is reported as such once the parked put is released (so it can
// end); the watchdog bounds a hang, it orders nothing.
std::string attempt_while_parked(ParkedPut& parked, const std::function<void()>& put) {
  auto outcome = std::async(std::launch::async, [&put]() -> std::string {
    try {
      put();
      return "done";
    } catch (const StorageError&) {
      return "StorageError";
    } catch (const std::exception& error) {
      return std::string("threw: ") + error.what();
    }
  });
  if (outcome.wait_for(kWatchdog) == std::future_status::ready) return outcome.get();
  parked.release();
  return std::string("still blocked after the watchdog, then ").append(outcome.get());
}

// Thrown by a hook to fail a put at its point.
struct HookFailure : std::runtime_error {
  HookFailure() : std::runtime_error("failure injected at a hook point") {}
};

std::vector<std::string> publication_digests(const SegmentRecord& record) {
  std::vector<std::string> digests;
  for (const auto& publication : record.publications) {
    digests.push_back(publication.metadata.scope_digest);
  }
  return digests;
}

const SegmentMetadata kA = with_digest(base_metadata(), "digest-a");
const SegmentMetadata kB = with_digest(base_metadata(), "digest-b");
const SegmentMetadata kC = with_digest(base_metadata(), "digest-c");

class SegmentStoreContract : public SegmentStoreTest {
 protected:
  // Options under which a put gives up on a held lock at once, so a lock is
  // observed by a refusal instead of by waiting.
  static SegmentStoreOptions impatient() {
    SegmentStoreOptions options;
    options.lock_wait_ms = 1;
    return options;
  }
  std::string dump() { return has_sql() ? database().dump_segment_tables() : ""; }

  // Opens writer(), an impatient store whose puts park at `point` once
  // parked().start() runs.
  void park_at(const CapabilityGrant& hooks, PutHookPoint point) {
    parked_ = std::make_unique<ParkedPut>(hooks, point);
    SegmentStoreOptions options = impatient();
    install_put_hook(hooks, options, parked_->hook());
    writer_ = open(options);
  }
  ParkedPut& parked() { return *parked_; }
  SegmentStore& writer() { return *writer_; }

  // While `parked` waits holding the write lock of `bytes`: another put of
  // them on `writer`, its store, gives up with StorageError; the harness's
  // connection still reads `before`.
  void expect_lock_held_and_nothing_visible(const Bytes& bytes, const std::string& before) {
    EXPECT_EQ(attempt_while_parked(parked(), [&] { writer().put(kC, bytes, kNow + 2); }),
              "StorageError")
        << "another put of the same bytes on the same store waits for the lock, then gives up";
    EXPECT_EQ(dump(), before) << "another connection still reads the state before the put";
  }

 private:
  // The parked put uses the store: it is declared last, so it ends first.
  std::unique_ptr<SegmentStore> writer_;
  std::unique_ptr<ParkedPut> parked_;
};
SSP_ALL_BACKENDS(SegmentStoreContract);

TEST_P(SegmentStoreContract, SC_1_AReadOnlyStoreRefusesEveryPutAndWritesNothing) {
  record_spec("§5.1", "SC-1");
  SSP_GRANT_CAPABILITY(read_only_open, candidate(), Capability::read_only_open);
  const Bytes stored = payload("stored");
  const SegmentRecord first = store().put(kA, stored, kNow);
  const std::string before = dump();

  HookLog hooks;
  SegmentStoreOptions read_only;
  open_read_only(read_only_open, read_only);
  // Where the candidate parks at hook points, a refused put passes none.
  const std::optional<CapabilityGrant> hook_points = optional_grant(candidate(), Capability::hooks);
  if (hook_points) install_put_hook(*hook_points, read_only, hooks.hook());
  auto reader = open(read_only);
  EXPECT_THROW(reader->put(kA, payload("new"), kNow + 1), ReadOnlyStore) << "a new segment";
  EXPECT_THROW(reader->put(kB, stored, kNow + 1), ReadOnlyStore) << "a merge into a stored one";
  EXPECT_THAT(hooks.take(), IsEmpty()) << "a refused put passes no hook point";

  EXPECT_FALSE(reader->get(kNewId));
  const auto seen = reader->get(first.segment_id);
  if (candidate().persists(backend())) {
    ASSERT_TRUE(seen.has_value());
    EXPECT_EQ(seen->record, first);
  } else {
    EXPECT_FALSE(seen) << "a memory store opened read-only starts empty";
  }
  const auto kept = store().get(first.segment_id);
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->record, first);
  EXPECT_EQ(dump(), before);
}

TEST_P(SegmentStoreContract, SC_2_APutPassesEveryPointInOrderOnItsOwnThread) {
  record_spec("§5.1", "SC-2");
  SSP_GRANT_CAPABILITY(hook_points, candidate(), Capability::hooks);
  HookLog hooks;
  SegmentStoreOptions options;
  install_put_hook(hook_points, options, hooks.hook());
  auto hooked = open(options);
  const Bytes bytes = payload("ordered");
  const auto expected = ElementsAre("before_begin", "after_read", "before_commit");

  ASSERT_NO_THROW(hooked->put(kA, bytes, kNow));
  EXPECT_TRUE(hooks.all_on(std::this_thread::get_id()));
  EXPECT_THAT(hooks.take(), expected) << "a new segment";
  ASSERT_NO_THROW(hooked->put(kB, bytes, kNow + 1));
  EXPECT_TRUE(hooks.all_on(std::this_thread::get_id()));
  EXPECT_THAT(hooks.take(), expected) << "a merge";
}

TEST_P(SegmentStoreContract, SC_2_ARefusedPutStopsWhereItIsRefused) {
  record_spec("§5.1", "SC-2");
  SSP_GRANT_CAPABILITY(hook_points, candidate(), Capability::hooks);
  SSP_GRANT_CAPABILITY(hasher, candidate(), Capability::injected_hasher);
  HookLog hooks;
  SegmentStoreOptions options;
  install_put_hook(hook_points, options, hooks.hook());
  inject_hasher(hasher, options, [](std::span<const std::uint8_t>) {  // every payload collides
    return std::string("sha256:").append(64, 'c');
  });
  auto hooked = open(options);
  EXPECT_THROW(hooked->put(kA, payload("x"), kMaxSafeInteger + 1), InvalidArgument);
  EXPECT_THAT(hooks.take(), IsEmpty()) << "arguments are checked before before_begin";

  ASSERT_NO_THROW(hooked->put(kA, payload("first"), kNow));
  hooks.take();
  EXPECT_THROW(hooked->put(kB, payload("second"), kNow + 1), SegmentCollision);
  EXPECT_THAT(hooks.take(), ElementsAre("before_begin", "after_read"))
      << "a collision is found by reading, and refused before anything is written";
}

TEST_P(SegmentStoreContract, SC_2_AtBeforeBeginAPutHoldsNoLock) {
  record_spec("§5.1", "SC-2");
  SSP_GRANT_CAPABILITY(hook_points, candidate(), Capability::hooks);
  park_at(hook_points, PutHookPoint::before_begin);
  const Bytes bytes = payload("contended");

  parked().start([&] { writer().put(kA, bytes, kNow); });
  ASSERT_TRUE(parked().reached()) << "the put never reached before_begin (watchdog)";
  EXPECT_EQ(attempt_while_parked(parked(), [&] { writer().put(kB, bytes, kNow + 1); }), "done")
      << "another put on the same store runs to completion";
  ASSERT_NO_THROW(parked().finish());

  const auto got = writer().get(kContendedId);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(publication_digests(got->record), (std::vector<std::string>{"digest-b", "digest-a"}))
      << "the parked put read after the other had committed";
}

TEST_P(SegmentStoreContract, SC_2_AtAfterReadAPutHoldsTheWriteLockOfItsContentAddress) {
  record_spec("§5.1", "SC-2");
  SSP_GRANT_CAPABILITY(hook_points, candidate(), Capability::hooks);
  park_at(hook_points, PutHookPoint::after_read);
  const Bytes bytes = payload("contended");
  const std::string before = dump();

  parked().start([&] { writer().put(kA, bytes, kNow); });
  ASSERT_TRUE(parked().reached()) << "the put never reached after_read (watchdog)";
  expect_lock_held_and_nothing_visible(bytes, before);
  ASSERT_NO_THROW(parked().finish());

  const auto got = writer().get(kContendedId);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(publication_digests(got->record), std::vector<std::string>{"digest-a"});
}

TEST_P(SegmentStoreContract, SC_2_AtBeforeCommitTheLockIsHeldAndNothingIsVisible) {
  record_spec("§5.1", "SC-2");
  SSP_GRANT_CAPABILITY(hook_points, candidate(), Capability::hooks);
  park_at(hook_points, PutHookPoint::before_commit);
  const Bytes bytes = payload("contended");
  ASSERT_NO_THROW(writer().put(kA, bytes, kNow));  // not parked: before start()
  const std::string before = dump();

  parked().start([&] { writer().put(kB, bytes, kNow + 1); });
  ASSERT_TRUE(parked().reached()) << "the put never reached before_commit (watchdog)";
  expect_lock_held_and_nothing_visible(bytes, before);
  ASSERT_NO_THROW(parked().finish());

  const auto got = writer().get(kContendedId);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(publication_digests(got->record), (std::vector<std::string>{"digest-a", "digest-b"}));
  if (has_sql()) {
    EXPECT_NE(dump(), before) << "the commit made the put visible";
  }
}

TEST_P(SegmentStoreContract, SC_2_APutFailingAtAnyPointCommitsNothing) {
  record_spec("§5.1", "SC-2");
  SSP_GRANT_CAPABILITY(hook_points, candidate(), Capability::hooks);
  const Bytes bytes = payload("failing");
  for (const PutHookPoint point :
       {PutHookPoint::before_begin, PutHookPoint::after_read, PutHookPoint::before_commit}) {
    SCOPED_TRACE("failing at " + point_name(point));
    std::atomic<bool> armed{false};
    SegmentStoreOptions options;
    install_put_hook(hook_points, options, [&armed, point](PutHookPoint reached) {
      if (armed && reached == point) throw HookFailure();
    });
    auto hooked = open(options);
    // Memory: each open starts empty. `id` is the candidate's own id for `bytes`.
    std::string id;
    ASSERT_NO_THROW(id = hooked->put(kA, bytes, kNow).segment_id);
    const auto record_before = hooked->get(id);
    ASSERT_TRUE(record_before.has_value());
    const SegmentStoreStats stats_before = hooked->stats();
    const std::string before = dump();

    armed = true;
    EXPECT_THROW(hooked->put(kB, bytes, kNow + 1), HookFailure) << "a merge";
    EXPECT_THROW(hooked->put(kA, payload("new"), kNow + 1), HookFailure) << "a new segment";
    const auto record_after = hooked->get(id);
    ASSERT_TRUE(record_after.has_value());
    EXPECT_EQ(record_after->record, record_before->record);
    EXPECT_FALSE(hooked->get(kNewId));
    EXPECT_EQ(hooked->stats(), stats_before);
    EXPECT_EQ(dump(), before);

    armed = false;
    EXPECT_NO_THROW(hooked->put(kB, bytes, kNow + 1)) << "the store is usable afterwards";
  }
}

}  // namespace
}  // namespace ssp::harness
