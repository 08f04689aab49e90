// The reference's stored-layouts reader (design/storage.md §1.2): how it
// parses and compares a marker's layouts text. The conformance side (the text
// a candidate writes and what its storage accepts) is s2_4_layouts_test.cpp.
#include <gtest/gtest.h>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "ssp/storage/layouts.hpp"

namespace ssp::harness {
namespace {

using storage::ColumnType;

TEST(LayoutsReader, LAY_1_ParseAndCompareAreStructural) {
  record_spec("§2.4", "LAY-1");
  EXPECT_TRUE(storage::parse_layouts(std::nullopt).tables.empty());
  EXPECT_TRUE(storage::parse_layouts(std::string()).tables.empty());
  EXPECT_TRUE(storage::parse_layouts(std::string("{}")).tables.empty());
  const std::string reordered =
      " { \"t\" : [ {\"nullable\":true, \"extra\": [1], \"type\":\"string\",\"name\":\"a\"} ] } ";
  EXPECT_TRUE(storage::layouts_equal(
      reordered, std::string(R"({"t":[{"name":"a","type":"string","nullable":true}]})")));
  EXPECT_FALSE(storage::layouts_equal(
      reordered, std::string(R"({"t":[{"name":"a","type":"string","nullable":false}]})")));
  // layouts_of keeps name, type and nullability in declaration order.
  const storage::SchemaLayouts layouts = storage::layouts_of(example_compiled());
  ASSERT_EQ(layouts.size(), 2u);
  EXPECT_EQ(layouts[0].table, "tasks");
  ASSERT_EQ(layouts[0].columns.size(), 6u);
  EXPECT_EQ(layouts[0].columns[5], (storage::ColumnLayout{"doc", ColumnType::crdt, true}));
  ASSERT_EQ(layouts[1].columns.size(), 3u);
  EXPECT_EQ(layouts[1].columns[2], (storage::ColumnLayout{"body", ColumnType::bytes, true}));
  EXPECT_EQ(storage::layouts_json(layouts), kExampleLayoutsJson);
}

}  // namespace
}  // namespace ssp::harness
