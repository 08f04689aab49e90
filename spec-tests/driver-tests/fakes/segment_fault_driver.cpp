// ssp-fake-segment-driver FAULT: the reference driver with segments.put split
// in two transactions, a negative control of the fault tests (issue 35,
// docs/faults.md). Each fault is one way a real implementation can make a put
// non-atomic, which only a process dying part-way shows:
//  - commits-the-scope-before-the-put: the scope row of the put's publication
//    (sync_segment_scopes) is committed in a transaction of its own, and the
//    rest of the put (the segment row, the publication) in the store's put
//    after it. A process that dies between leaves a scope row that no
//    publication names (FAULT-7, killed at the hasher or a put hook).
//  - loses-an-answered-put: the put runs, then its publication and its scope
//    row are deleted, each in a transaction of its own, before the answer,
//    which still names them: a store that acknowledges what it does not keep.
//    Only a new process shows it (FAULT-14, the answer lost).
// Everything else answers as the reference driver does.
#include <sqlite3.h>

#include <iostream>
#include <map>
#include <mutex>
#include <pqxx/pqxx>
#include <stdexcept>

#include "location.hpp"
#include "server.hpp"
#include "ssp/segments/segment_id.hpp"
#include "wire/segment_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

// Where each open store of this process lives, by its handle.
class StoreLocations {
 public:
  void remember(std::int64_t store, Location location) {
    std::lock_guard lock(mutex_);
    locations_[store] = std::move(location);
  }
  Location of(std::int64_t store) const {
    std::lock_guard lock(mutex_);
    const auto found = locations_.find(store);
    if (found == locations_.end()) throw std::runtime_error("the fake knows no store " + std::to_string(store));
    return found->second;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::int64_t, Location> locations_;
};

StoreLocations& store_locations() {
  static StoreLocations locations;
  return locations;
}

// The statements of the transactions of its own; SQLite and PostgreSQL both
// take them, each with ($1, $2) = (segment id, scope digest).
constexpr const char* kInsertScope =
    "INSERT INTO sync_segment_scopes(segment_id, scope_digest) VALUES ($1, $2) "
    "ON CONFLICT DO NOTHING";
constexpr const char* kDeletePublication =
    "DELETE FROM sync_segment_publications WHERE segment_id = $1 AND scope_digest = $2";
constexpr const char* kDeleteScope =
    "DELETE FROM sync_segment_scopes WHERE segment_id = $1 AND scope_digest = $2";

void commit_on_sqlite(const std::string& path, const char* sql, const std::string& segment_id,
                      const std::string& scope_digest) {
  sqlite3* db = nullptr;
  const auto fail = [&](const std::string& what) {
    const std::string message = what + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    throw std::runtime_error("the fake's own transaction: " + message);
  };
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    fail("open " + path);
  }
  sqlite3_busy_timeout(db, 10'000);
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) != SQLITE_OK) fail("prepare");
  sqlite3_bind_text(statement, 1, segment_id.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(statement, 2, scope_digest.c_str(), -1, SQLITE_TRANSIENT);
  const int step = sqlite3_step(statement);  // autocommit: a transaction of its own
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE) fail("step");
  sqlite3_close(db);
}

void commit_on_postgres(const Location& location, const char* sql, const std::string& segment_id,
                        const std::string& scope_digest) {
  pqxx::connection connection(location.dsn);
  pqxx::work work(connection);
  work.exec("SET LOCAL search_path TO " + connection.quote_name(location.schema));
  work.exec_params(sql, segment_id, scope_digest);
  work.commit();
}

// Runs `sql` on the database of `params`' store in a transaction of its own,
// for the put's segment id and scope digest.
void commit_for_the_put(const Fields& params, const char* sql) {
  const Location location = store_locations().of(params.integer("store"));
  const SegmentMetadata metadata =
      wire::metadata_from_json(params.at("metadata"), params.path_of("metadata"));
  const std::string segment_id = sha256_segment_id(params.bytes("bytes"));
  if (location.backend == "sqlite") {
    commit_on_sqlite(location.path, sql, segment_id, metadata.scope_digest);
  } else if (location.backend == "postgres") {
    commit_on_postgres(location, sql, segment_id, metadata.scope_digest);
  }
}

Method remembering_locations(Method real) {
  return [real](const Fields& params) {
    Json answer = real(params);
    store_locations().remember(answer.at("store").get<std::int64_t>(),
                               location_from_json(params.object("location")));
    return answer;
  };
}

Method commits_the_scope_before_the_put(Method real) {
  return [real](const Fields& params) {
    commit_for_the_put(params, kInsertScope);
    return real(params);
  };
}

Method loses_an_answered_put(Method real) {
  return [real](const Fields& params) {
    Json answer = real(params);
    commit_for_the_put(params, kDeletePublication);
    commit_for_the_put(params, kDeleteScope);
    return answer;
  };
}

}  // namespace
}  // namespace ssp::driver

int main(int argc, char** argv) {
  using namespace ssp::driver;
  const std::string fault = argc == 2 ? argv[1] : "";
  MethodTable methods = all_methods();
  methods["segments.open"] = remembering_locations(methods["segments.open"]);
  if (fault == "commits-the-scope-before-the-put") {
    methods["segments.put"] = commits_the_scope_before_the_put(methods["segments.put"]);
  } else if (fault == "loses-an-answered-put") {
    methods["segments.put"] = loses_an_answered_put(methods["segments.put"]);
  } else {
    std::cerr << "usage: ssp-fake-segment-driver commits-the-scope-before-the-put | "
                 "loses-an-answered-put\n";
    return 2;
  }
  return serve_standard_streams(methods);
}
