#include "driver_push_pairs.hpp"

#include <optional>
#include <string>

#include "common/interleaved_pairs.hpp"
#include "common/payload.hpp"
#include "harness/driver/driver_process.hpp"
#include "push/applied_answer.hpp"
#include "push/push_site.hpp"
#include "push/push_workload.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::bench {
namespace {

using wire::Json;

Json location_of(const PushStoragePlace& place) {
  if (place.backend == BenchBackend::sqlite) {
    return Json{{"backend", "sqlite"}, {"path", place.sqlite_path}};
  }
  return Json{{"backend", "postgres"}, {"dsn", place.dsn}, {"schema", place.schema}};
}

// The reference driver with one storage open on `site`'s and brought to its
// schema. Throws what the driver's answers stand for.
class DriverStorage {
 public:
  explicit DriverStorage(PushSite& site)
      : process_("'" SSP_BENCH_REFERENCE_DRIVER "'", harness::driver_limits()) {
    const Json hello = process_.call("hello", {{"protocol", 2}, {"harness", "ssp-bench"}});
    const Json& capabilities = hello.at("capabilities");
    ensured_schema_ = capabilities.value("ensuredSchema", false);
    const Json options{{"compatibility", "0.22"}, {"lockWaitMs", 30'000}, {"hooks", false}};
    handle_ = process_
                  .call("storage.open",
                        {{"location", location_of(site.storage_place())}, {"options", options}})
                  .at("storage");
    process_.call("storage.ensure_schema",
                  {{"storage", handle_}, {"schema", wire::compiled_schema_to_json(site.schema())}});
  }
  ~DriverStorage() {
    try {
      process_.call("storage.close", {{"storage", handle_}});
    } catch (...) {
      // The process ends with this object either way.
    }
  }
  DriverStorage(const DriverStorage&) = delete;
  DriverStorage& operator=(const DriverStorage&) = delete;

  bool ensured_schema() const { return ensured_schema_; }

  // push.run of `commit`; `schema` added to the request when given.
  push::PushAnswer push(const push::PushActor& actor, const push::PushCommit& commit,
                        std::int64_t now_ms, const storage::CompiledSchema* schema) {
    Json params{{"storage", handle_},
                {"actor", wire::push_actor_to_json(actor)},
                {"commit", wire::push_commit_to_json(commit)},
                {"nowMs", now_ms},
                {"maxOperationsPerRequest", 500},
                {"cacheIdentity", nullptr},
                {"callbacks",
                 {{"rowValidators", Json::array()},
                  {"commitValidator", false},
                  {"notify", false},
                  {"hooks", false}}}};
    if (schema != nullptr) params["schema"] = wire::compiled_schema_to_json(*schema);
    return wire::push_answer_from_json(process_.call("push.run", std::move(params)), "result");
  }

 private:
  harness::DriverProcess process_;
  Json handle_;
  bool ensured_schema_ = false;
};

// One side of the pair: a commit stream of its own (its own row ids) pushed
// through `driver`, with the schema in the request or not.
class DriverPusher {
 public:
  DriverPusher(DriverStorage& driver, const storage::CompiledSchema& schema, int stream,
               int operations, bool carry_schema)
      : driver_(driver),
        schema_(schema),
        commits_(schema, stream, operations),
        actor_{push_partition(0, 1), "bench-actor", push_bench_scopes()},
        carry_schema_(carry_schema) {}

  // A pair step: the stream's next commit, false once it stopped the
  // benchmark with the answer's problem.
  bool push_next(benchmark::State& state) {
    const push::PushCommit commit = commits_.commit(index_++);
    const push::PushAnswer answer =
        driver_.push(actor_, commit, now_++, carry_schema_ ? &schema_ : nullptr);
    if (const auto problem = not_applied(answer, commit, previous_seq_)) {
      state.SkipWithError(problem->c_str());
      return false;
    }
    previous_seq_ = *answer.commit_seq;
    return true;
  }

 private:
  DriverStorage& driver_;
  const storage::CompiledSchema& schema_;
  const PushCommitStream commits_;
  const push::PushActor actor_;
  const bool carry_schema_;
  std::int64_t now_ = kBenchNowMs;
  std::uint64_t index_ = 0;
  std::int64_t previous_seq_ = 0;
};

}  // namespace

void bench_driver_push_pairs(benchmark::State& state, BenchBackend backend, int operations,
                             const BenchConfig& config) {
  const std::unique_ptr<PushSite> site = make_push_site(backend, config);
  DriverStorage driver(*site);
  if (!driver.ensured_schema()) {
    state.SkipWithError("the reference driver does not declare ensuredSchema");
    return;
  }
  DriverPusher carried(driver, site->schema(), 0, operations, true);
  DriverPusher ensured(driver, site->schema(), 1, operations, false);
  run_interleaved_pairs(state, {"carried", [&] { return carried.push_next(state); }},
                        {"ensured", [&] { return ensured.push_next(state); }});
}

}  // namespace ssp::bench
