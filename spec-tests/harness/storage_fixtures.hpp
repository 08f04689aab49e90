// Shared values of the storage requirements (design/storage.md §6) and the
// fixture every storage test derives from: parameterized over the SQL
// backends only, since the server storage has no memory form.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "harness/candidate.hpp"
#include "harness/capability_gate.hpp"
#include "harness/file_text.hpp"
#include "harness/spec.hpp"
#include "harness/test_database.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::harness {

// The worked example of storage.md §1.2 at version 3, as
// fixtures/storage/example_v3.schema.json holds it: tasks (id, project_id,
// title?, done, meta? json, doc? crdt yjs-doc; index by_project; materialized)
// and notes (id, space_id, body? encrypted bytes; not materialized).
storage::ServerSchema example_schema();
// The layouts text of example_schema(): the worked example of storage.md
// §1.2 on one line, byte for byte (upstream's JSON.stringify of layoutsOf).
// A literal, so tests compare the stored marker with it rather than with the
// reference's own layouts_json.
extern const std::string kExampleLayoutsJson;
// The candidate under test's compile rules (its schema() area) applied to
// example_schema(), to `schema`, to `schema` with `version` replaced; and the
// layouts text the candidate gives `schema`. Conformance tests take their
// schemas from the candidate, never from the reference's compile_schema
// (TRACE-8). Callers outside a StorageTest check Capability::schema first.
storage::CompiledSchema example_compiled();
storage::CompiledSchema compiled(storage::ServerSchema schema, std::int64_t version);
storage::CompiledSchema compiled(const storage::ServerSchema& schema);
std::string compiled_layouts_json(const storage::ServerSchema& schema);

// A schema of plain tables: each named table with the given columns, keyed
// and scoped on its first column ("k:{<first>}"), default materialize.
storage::ServerSchema schema_of(
    std::int64_t version,
    const std::vector<std::pair<std::string, std::vector<storage::ColumnLayout>>>& tables);

// A tasks row of the example schema (payload encoded by the candidate's row
// codec, scopes from project_id).
storage::StoredRow task_row(const std::string& id, const std::string& project,
                            std::optional<std::string> title, bool done,
                            std::int64_t server_version = 1);

// The refusal `action` throws, or nothing when it does not throw a
// SchemaRefusal (any other exception propagates).
std::optional<storage::SchemaRefusal> refusal_of(const std::function<void()>& action);

// The marker row of `db` as "version|layouts", or "" when the row or the
// table is absent.
std::string marker_text(TestDatabase& db);

// Parameterized over sqlite and postgres. SetUp skips (or, with
// SSP_REQUIRE_PG=1, fails) when the backend is unavailable, skips when the
// candidate lacks the server storage, schema or rows areas, and creates a
// fresh database.
class StorageTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override;

  Backend backend() const { return GetParam(); }
  Candidate& candidate() { return current_candidate(); }
  TestDatabase& database() { return *database_; }

  // A new storage on a new connection over this test's database.
  std::unique_ptr<storage::ServerStorage> open(const storage::ServerStorageOptions& options = {});
  // Another fresh database of this test's backend, and a storage on it, for
  // tests that need one database per case.
  std::unique_ptr<TestDatabase> fresh_database() { return create_test_database(backend()); }
  std::unique_ptr<storage::ServerStorage> open_on(
      TestDatabase& other, const storage::ServerStorageOptions& options = {});
  // The test's default storage, opened on first use.
  storage::ServerStorage& storage();
  // Drops the default storage and opens a new one (a restart).
  storage::ServerStorage& reopen();

  // Runs fixtures/storage/<name>.<sqlite|postgres>.sql on this database.
  void load_fixture(const std::string& fixtures_dir, const std::string& name);

  // dump_all_tables() of this database.
  std::string dump() { return database_->dump_all_tables(); }
  // marker_text of this test's database.
  std::string marker();

 private:
  std::unique_ptr<TestDatabase> database_;
  std::unique_ptr<storage::ServerStorage> storage_;
};

// The param name for test instantiation: sqlite, postgres.
std::string storage_param_name(const ::testing::TestParamInfo<Backend>& info);

}  // namespace ssp::harness

// Instantiates a StorageTest-derived suite over the two SQL backends.
#define SSP_SQL_BACKENDS(Suite)                                                              \
  INSTANTIATE_TEST_SUITE_P(                                                                  \
      , Suite,                                                                               \
      ::testing::Values(::ssp::harness::Backend::sqlite, ::ssp::harness::Backend::postgres), \
      ::ssp::harness::storage_param_name)
