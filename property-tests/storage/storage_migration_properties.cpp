// Migration invariants (design/storage.md §7, invariants 6 and 7) on SQLite
// and PostgreSQL: an append-only bump keeps every retained row and its
// projection, retires dropped tables; any other bump changes nothing.
#include "storage_property_support.hpp"

namespace ssp::properties {
namespace {

using harness::action_is;
using harness::record_spec;
using harness::refusal_of;
using storage::RefusalReason;
using storage::SchemaReport;

// The commit log as text: unchanged by any migration.
std::string commit_log(harness::TestDatabase& db) {
  std::string out;
  for (const auto& line : db.query_column(
           "SELECT partition || ':' || CAST(commit_seq AS TEXT) || ':' || client_commit_id "
           "FROM sync_commits ORDER BY partition, commit_seq")) {
    out += line + "\n";
  }
  return out;
}

std::string count(harness::TestDatabase& db, const std::string& table, const std::string& tbl) {
  return db.query_column("SELECT count(*) FROM " + table + " WHERE tbl = " + sql_literal(tbl))
      .at(0);
}

class MigrationProperties : public StorageProperty {};
SSP_SQL_BACKENDS(MigrationProperties);

TEST_P(MigrationProperties, INV_6_AppendOnlyMigrationPreservesRows) {
  record_spec("§2.4", "INV-6");
  check_storage_property([this] {
    const auto schema = *gen_schema();
    const auto [evolved, kind] = *gen_append_only_evolution(schema);
    RC_TAG(kind);
    const auto rows = *gen_rows(harness::compiled(schema));
    auto db = seeded(schema, rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const GeneratedRow& row = rows[i];
      db->exec(
          "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, "
          "actor_id, created_at_ms) VALUES ('" +
          row.partition + "', " + std::to_string(i + 1) + ", 'c', 'k" + std::to_string(i) +
          "', 'a', 1)");
      db->exec("INSERT INTO sync_blob_refs (partition, tbl, row_id, blob_id) VALUES ('" +
               row.partition + "', " + sql_literal(row.table) + ", '" + row.row.row_id +
               "', 'sha256:x')");
    }
    const std::string log_before = commit_log(*db);
    const auto target = harness::compiled(evolved);
    auto storage = open_on(*db);
    RC_ASSERT(action_is(storage->ensure_schema(target), SchemaReport::Action::migrated));
    for (const GeneratedRow& row : rows) {
      const storage::CompiledTable* table = target.find(row.table);
      if (table == nullptr) {  // retired, with its scope and blob-ref entries
        RC_ASSERT(db->column_names(row.table).empty());
        RC_ASSERT(count(*db, "sync_row_scopes", row.table) == "0");
        RC_ASSERT(count(*db, "sync_blob_refs", row.table) == "0");
        continue;
      }
      const auto stored = storage->get_row(row.partition, row.table, row.row.row_id);
      RC_ASSERT(stored.has_value());
      RC_ASSERT(stored->server_version == row.row.server_version);
      RC_ASSERT(stored->scopes == row.row.scopes);
      storage::Row expected = row.values;
      expected.resize(table->columns().size(), std::monostate{});
      RC_ASSERT(harness::current_candidate().rows().decode(table->layout(), stored->payload) == expected);
      if (!table->materialized) continue;
      const storage::Row projection =
          *storage->read_projection(row.partition, row.table, row.row.row_id);
      for (std::size_t i = 0; i < expected.size(); ++i) {
        RC_ASSERT(same_value(projection[i], expected[i], table->columns()[i].type));
      }
    }
    RC_ASSERT(commit_log(*db) == log_before);
  });
}

TEST_P(MigrationProperties, INV_7_NonAppendOnlyMigrationIsAtomic) {
  record_spec("§2.4", "INV-7");
  check_storage_property([this] {
    const auto schema = *gen_schema();
    const auto [evolved, kind] = *gen_breaking_evolution(schema);
    RC_TAG(kind.substr(0, kind.find(" in ")));
    auto db = seeded(schema, *gen_rows(harness::compiled(schema)));
    const std::string before = db->dump_all_tables();
    const auto refusal = refusal_of([&] { open_on(*db)->ensure_schema(harness::compiled(evolved)); });
    RC_ASSERT(refusal.has_value());
    RC_ASSERT(refusal->reason() == RefusalReason::not_append_only);
    RC_ASSERT(db->dump_all_tables() == before);
  });
}

}  // namespace
}  // namespace ssp::properties
