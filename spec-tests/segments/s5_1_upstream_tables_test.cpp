// COMPAT-1 (issue 11; SPEC §5.1): a SQLite segment database the candidate
// creates has the tables and columns upstream 0.22 creates, so either server
// can open the other's file. The known answer is upstream's DDL
// (fixtures/segments-0.22/), run into a database of its own; each table's
// columns are compared as SQLite itself reports them. Table storage (for
// example WITHOUT ROWID) and extra indexes are the candidate's choice, with
// one exception upstream depends on: it reads publications in rowid order.
#include <gtest/gtest.h>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

class UpstreamSegmentTables : public SegmentStoreTest {};
SSP_ALL_BACKENDS(UpstreamSegmentTables);

constexpr const char* kSegmentTables =
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'sync!_segment%' "
    "ESCAPE '!' ORDER BY name";

// Each column of `table` as SQLite reports it: position, name, declared
// type, NOT NULL, default and place in the primary key.
std::vector<std::string> columns_of(TestDatabase& database, const std::string& table) {
  return database.query_column(
      "SELECT cid || ' ' || name || ' ' || type || ' notnull=' || \"notnull\" || "
      "' default=' || coalesce(dflt_value, 'none') || ' pk=' || pk "
      "FROM pragma_table_info('" + table + "') ORDER BY cid");
}

TEST_P(UpstreamSegmentTables, COMPAT_1_ANewSqliteDatabaseHasUpstreamTablesAndColumns) {
  record_spec("§5.1", "COMPAT-1");
  if (backend() != Backend::sqlite) {
    GTEST_SKIP() << "upstream 0.22 stores segments in SQLite only: its DDL is SQLite's";
  }
  ASSERT_NO_THROW(store().stats()) << "the store creates its tables when it opens";
  auto upstream = create_test_database(Backend::sqlite);
  ASSERT_NE(upstream, nullptr);
  upstream->exec(read_fixture("segments-0.22/upstream_tables.sqlite.sql"));

  const std::vector<std::string> tables = upstream->query_column(kSegmentTables);
  ASSERT_EQ(tables.size(), 3u) << "the fixture defines three tables";
  EXPECT_EQ(database().query_column(kSegmentTables), tables);
  for (const auto& table : tables) {
    EXPECT_EQ(columns_of(database(), table), columns_of(*upstream, table)) << table;
  }
  EXPECT_NO_THROW(database().query_column("SELECT rowid FROM sync_segment_publications"))
      << "upstream orders a segment's publications by rowid";
}

}  // namespace
}  // namespace ssp::harness
