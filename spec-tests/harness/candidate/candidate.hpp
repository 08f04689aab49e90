// A candidate is an implementation under test. Tests talk to a Candidate,
// never to a backend class: the reference is one candidate, an out-of-process
// driver is another.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "harness/areas/command_area.hpp"
#include "harness/areas/download_area.hpp"
#include "harness/areas/error_catalog_area.hpp"
#include "harness/areas/push_area.hpp"
#include "harness/areas/row_area.hpp"
#include "harness/areas/schema_area.hpp"
#include "harness/areas/scope_area.hpp"
#include "harness/areas/signed_url_area.hpp"
#include "harness/candidate/backend.hpp"
#include "harness/errors/harness_error.hpp"
#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::harness {

// Parts of the surface a candidate may lack. A test that needs one the
// candidate lacks is skipped, saying which (SSP_REQUIRE_CAPABILITY).
enum class Capability {
  segment_store,    // open_segment_store
  server_storage,   // open_server_storage
  hooks,            // put_hook / ensure_hook run at their points and can park the call
  injected_hasher,  // a SegmentStoreOptions::hasher other than SHA-256 is honoured
  read_only_open,   // SegmentStoreOptions::read_only opens without writing and refuses put
  scope,            // scope(): canonical scope JSON, digest, parsing, effective scopes
  rows,             // rows(): the row codec
  schema,           // schema(): schema JSON, compile rules, layouts text
  download,         // download(): the §5.5 decision
  signed_url,       // signed_urls(): §5.4 tokens
  error_catalog,    // error_catalog(): the §10.2 table
  push,             // push() and ServerStorage's stored results and commit log reads
  transactions,     // ServerStorage::begin and the PushTransaction steps
  push_hooks,       // PushOptions::hook runs at H0–H6 and can park or fail the push
  commands,         // commands(): registered remote commands of the declared vocabulary
  command_callbacks,  // a command's commit runs the test's validators and notifier, as a
                      // push's does (REMOTE §3), so a command parks at a callback too
  authoritative_queries,  // ServerStorage::query_authoritative
  table_window,     // ServerStorage::read_table_window, pull's scope-filtered read
  partition_registry,  // ServerStorage's partition registry: touch, rotate, read, list (§2.1)
  upstream_tables,  // the storage keeps upstream 0.22's tables (sync_commits, sync_push_results,
                    // …) under their names: a test may read or edit them by SQL, a check of
                    // the 0.22 storage format, never of what SSP2 requires
  schema_reports,   // ensure_schema says what it did (a SchemaReport other than unreported), and
                    // preview_schema is served; without it a test judges startup by the
                    // database and the storage's answers alone
  process_kill,     // a callback may kill the process serving the call (CandidateKilled), and a
                    // new process then opens the same database: only a candidate in a process
                    // of its own (a driver) offers it
};
// e.g. "the segment store", "parking at hook points".
std::string_view capability_name(Capability capability);

class Candidate {
 public:
  virtual ~Candidate() = default;

  virtual std::string name() const = 0;

  // Whether the candidate implements `backend`; tests on others are skipped.
  virtual bool supports(Backend backend) const = 0;

  // Whether the candidate implements `capability`. By default all but
  // process_kill: a candidate linked into the harness shares its process.
  virtual bool has(Capability capability) const {
    return capability != Capability::process_kill;
  }
  // Why the candidate lacks `capability`, beyond its name, e.g. "the driver
  // speaks protocol version 1"; empty when there is nothing to add.
  virtual std::string lacks_because(Capability capability) const {
    if (capability == Capability::process_kill) {
      return "it runs inside the harness's own process, which a kill would end (the reference's "
             "process deaths are tried through ssp-reference-driver)";
    }
    return {};
  }

  // Kills the process serving `storage`, a server storage this candidate
  // opened, and returns once it is gone: what the process kept in memory is
  // lost, its database stays, and `storage` is unusable (drop it and open
  // anew). With process_kill only: otherwise throws HarnessError.
  virtual void kill_process_of(storage::ServerStorage& storage) {
    static_cast<void>(storage);
    throw HarnessError("kill_process_of: the candidate lacks " +
                       std::string(capability_name(Capability::process_kill)) +
                       ", and the test did not skip at its capability gate");
  }

  // The same for `store`, a segment store this candidate opened.
  virtual void kill_process_of(SegmentStore& store) {
    static_cast<void>(store);
    throw HarnessError("kill_process_of: the candidate lacks " +
                       std::string(capability_name(Capability::process_kill)) +
                       ", and the test did not skip at its capability gate");
  }

  // How many calls wait in the candidate's own coordinator for the database at
  // `location`; nothing when the candidate has none, its pushes being
  // serialized by the database's locks, which the database shows. SSP2 §6.8
  // lets a storage without interactive transactions serialize each partition
  // outside its database (upstream's D1 storage behind a Durable Object): a
  // race then sees a step wait where that storage serializes, as the
  // candidate reports it, and a step that has merely not answered is not
  // waiting.
  virtual std::optional<int> calls_waiting_in_coordinator(const DatabaseLocation& location) {
    static_cast<void>(location);
    return std::nullopt;
  }

  // Whether stores opened twice over one location see each other's data
  // (false for memory: each open is a new, empty store).
  virtual bool persists(Backend backend) const = 0;

  // Opens a segment store over `location` with `options`. Every call returns
  // a new store on a new connection.
  virtual std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                           const SegmentStoreOptions& options) = 0;

  // Opens a server storage (schema marker, layouts, migration; SSP2 §2.4)
  // over `location` with `options`, on a new connection. Nothing is created
  // until ensure_schema. SQL backends only: memory throws InvalidArgument.
  virtual std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) = 0;

  // The rest of the surface, one area each: rules that need no database
  // (scope, rows, schema, error catalog) and decisions over a store or
  // storage this candidate opened (download, signed URLs, push). A test
  // reaches an area only after SSP_REQUIRE_CAPABILITY for it; the reference
  // has them all.
  virtual ScopeArea& scope() = 0;
  virtual RowArea& rows() = 0;
  virtual SchemaArea& schema() = 0;
  virtual DownloadArea& download() = 0;
  virtual SignedUrlArea& signed_urls() = 0;
  virtual ErrorCatalogArea& error_catalog() = 0;
  virtual PushArea& push() = 0;
  virtual CommandArea& commands() = 0;
};

// The C++ reference implementation, linked in process (reference_candidate.cpp).
Candidate& reference_candidate();

// The candidate under test, chosen once by the environment variable
// SSP_CANDIDATE (candidate_selection.cpp):
//  - unset, empty or "reference": reference_candidate();
//  - "exec:COMMAND ARGS": an out-of-process driver (driver_candidate.hpp,
//    docs/driver-protocol.md); a driver that does not start throws DriverError
//    here, again on every call, so each test reports it as an error;
//  - "wrong:<name>": a deliberately wrong candidate (wrong_candidates.hpp),
//    the harness's own test data.
// Any other value prints the accepted forms to stderr and exits with status 2,
// before a test runs: every entry point calls it first (harness/cli/main.cpp).
Candidate& current_candidate();

}  // namespace ssp::harness
