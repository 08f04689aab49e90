// What a fault test says when a database changed (dump_difference.hpp): the
// tables that differ, with counts and the first lines, not two whole dumps.
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "harness/util/dump_difference.hpp"

namespace ssp::harness {
namespace {

TEST(DumpDifference, HARNESS_57_NamesEachChangedTableWithItsFirstLines) {
  record_spec("Harness", "HARNESS-57");
  const std::string before = "== schema\ntable|t\n== sync_commits\n== tasks\na|1\nb|1\n";
  EXPECT_EQ(dump_difference(before, before), "");
  const std::string after =
      "== schema\ntable|t\n== sync_commits\nacme|7\n== tasks\na|1\nb|2\nc|1\nd|1\ne|1\nf|1\n";
  EXPECT_EQ(dump_difference(before, after),
            "  sync_commits: 1 line(s) added, 0 dropped\n    + acme|7\n"
            "  tasks: 5 line(s) added, 1 dropped\n    + b|2\n    + c|1\n    + d|1\n    + … 2 more\n"
            "    - b|1");
}

// A fault test judges a commit without the request's own bookkeeping
// (s6_4_push_faults_test.cpp): one table's rows go, the rest stays.
TEST(DumpDifference, HARNESS_57_WithoutTableDropsThatTablesRowsOnly) {
  record_spec("Harness", "HARNESS-57");
  const std::string dump =
      "== columns\nsync_registry|at\ntasks|id\n== sync_registry\nacme|1014\n== tasks\na|1\n";
  EXPECT_EQ(without_table(dump, "sync_registry"),
            "== columns\nsync_registry|at\ntasks|id\n== tasks\na|1\n");
  EXPECT_EQ(without_table(dump, "sync_regist"), dump);
  EXPECT_EQ(without_table(dump, "tasks"),
            "== columns\nsync_registry|at\ntasks|id\n== sync_registry\nacme|1014\n");
}

}  // namespace
}  // namespace ssp::harness
