// Edge JSON (fixtures/cases/edge_json/edge_json.json) in the reference's own
// readers: the rule every site calls (parse_json_input, json_safe_integer:
// EJ-5) and the stored JSON the storage reads back (scopes EJ-6, layouts
// EJ-7, push results EJ-11). What a candidate answers at its sites is
// spec-tests/download/s5_5_edge_json_test.cpp.
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/case_table.hpp"
#include "harness/fixtures/edge_json_cases.hpp"
#include "json_refusal.hpp"
#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_safe_integer.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"
#include "ssp/storage/push_result_json.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// A message fit for a user: no library text, short, printable ASCII.
void expect_plain(const std::string& message) {
  EXPECT_FALSE(has_json_library_text(message)) << message;
  EXPECT_LE(message.size(), kMaxJsonSyntaxMessage);
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(byte >= 0x20 && byte < 0x7f) << "byte " << int(byte) << " in " << message;
  }
}

TEST(JsonInputRule, EJ_5_EdgeJsonIsRefusedPlainlyOrReadAsJsonParse) {
  record_spec("Conventions", "EJ-5");
  // Every case at a site wanting a string, in both flavours: read, or refused
  // with a plain message. The sites' own tests say which.
  const std::string site = edge_json_site("scope_map");
  for (const EdgeJsonCase& c : edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto text = c.document("scope_map", site);
    if (!text) continue;
    for (const std::string& refusal :
         {refusal_of<nlohmann::json>(*text), refusal_of<nlohmann::ordered_json>(*text)}) {
      if (refusal != "(accepted)") expect_plain(refusal);
    }
  }
  // Outside binary64: JSON.parse reads ±Infinity, which no site accepts.
  EXPECT_THAT(refusal_of<nlohmann::json>("[1e400]"), HasSubstr("1e400"));
  EXPECT_THAT(refusal_of<nlohmann::json>("[-1e400]"), HasSubstr("-1e400"));
  // Nesting: up to the limit read, one more refused, brackets in strings not counted.
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_EQ(refusal_of<nlohmann::json>(nested(kMaxJsonInputDepth)), "(accepted)");
  EXPECT_EQ(refusal_of<nlohmann::json>(nested(kMaxJsonInputDepth + 1)),
            "arrays or objects nested deeper than 512 levels");
  EXPECT_EQ(refusal_of<nlohmann::json>("[\"" + std::string(1000, '[') + "\\\"{\"]"), "(accepted)");
  // A repeated key: the last wins, as in JSON.parse.
  EXPECT_EQ(parse_json_input<nlohmann::json>(R"({"a":["x"],"a":["y"]})"),
            nlohmann::json::parse(R"({"a":["y"]})"));
  EXPECT_EQ(parse_json_input<nlohmann::ordered_json>(R"({"a":["x"],"b":1,"a":["y"]})").dump(),
            R"({"a":["y"],"b":1})");
  // A 10 MiB string ending in a byte that is not UTF-8: the message quotes
  // neither the megabytes nor the raw byte.
  const std::string refusal =
      refusal_of<nlohmann::json>("\"" + std::string(10 << 20, 'a') + "\xff\"");
  EXPECT_NE(refusal, "(accepted)");
  expect_plain(refusal);

  // Integers: JSON integer literals within ±(2^53−1), and nothing else.
  const auto integer = [](const char* text) {
    return json_safe_integer(parse_json_input<nlohmann::json>(text));
  };
  EXPECT_EQ(integer("9007199254740991"), 9007199254740991);
  EXPECT_EQ(integer("-9007199254740991"), -9007199254740991);
  EXPECT_EQ(integer("0"), 0);
  for (const char* refused : {"9007199254740992", "-9007199254740992", "18446744073709551615",
                              "18446744073709551616", "-18446744073709551617", "1.0", "1e2",
                              "\"1\"", "null", "true", "[1]"}) {
    SCOPED_TRACE(refused);
    EXPECT_EQ(integer(refused), std::nullopt);
    EXPECT_EQ(json_safe_integer(parse_json_input<nlohmann::ordered_json>(refused)), std::nullopt);
  }
}

TEST(StoredScopesJson, EJ_6_EdgeJsonInStoredScopesIsAStorageError) {
  record_spec("§2.4", "EJ-6");
  const std::string site = edge_json_site("stored_scopes");
  for (const EdgeJsonCase& c : edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto text = c.document("stored_scopes", site);
    if (!text) continue;
    if (c.accepted_at("stored_scopes")) {
      const auto scopes = storage::parse_scopes_json(*text, "tasks");
      EXPECT_EQ(scopes.at("project_id").size(),
                text->size() - std::string(R"({"project_id":""})").size());
      continue;
    }
    try {
      storage::parse_scopes_json(*text, "tasks");
      ADD_FAILURE() << "read";
    } catch (const StorageError& refused) {
      EXPECT_THAT(refused.what(), HasSubstr("\"tasks\""));
      EXPECT_FALSE(has_json_library_text(refused.what()));
    }
  }
}

TEST(StoredLayoutsJson, EJ_7_EdgeJsonInStoredLayoutsIsUnreadableOrNamesNoColumn) {
  record_spec("§2.4", "EJ-7");
  const std::string site = edge_json_site("stored_layouts");
  for (const EdgeJsonCase& c : edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto text = c.document("stored_layouts", site);
    if (!text) continue;
    try {
      const storage::StoredLayouts layouts = storage::parse_layouts(*text);
      const storage::StoredTable* tasks = layouts.find("tasks");
      ASSERT_NE(tasks, nullptr);
      ASSERT_EQ(tasks->columns.size(), 1u);
      const auto layout = tasks->columns[0].as_layout();
      if (c.accepted_at("stored_layouts")) {
        ASSERT_TRUE(layout);
        EXPECT_EQ(layout->name.size(), 10u << 20);
      } else {
        // Read as JSON.parse reads it, a name that is no string: the column
        // matches no configured one, so startup refuses (layouts_disagree).
        EXPECT_FALSE(layout) << "read a column from " << text->substr(0, 80);
      }
    } catch (const storage::SchemaRefusal& refused) {
      EXPECT_FALSE(c.accepted_at("stored_layouts"));
      EXPECT_EQ(refused.reason(), storage::RefusalReason::layouts_unreadable);
      EXPECT_FALSE(has_json_library_text(refused.what()));
    }
  }
}

TEST(StoredPushResultJson, EJ_11_EdgeJsonInAStoredPushResultIsACacheMiss) {
  record_spec("§10.2", "EJ-11");
  const std::string site = edge_json_site("stored_push_result");
  // The template with an ordinary commitSeq reads.
  EXPECT_EQ(push::parse_push_result(fill_placeholders(site, {{"value", "7"}})).commit_seq, 7);
  for (const EdgeJsonCase& c : edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto text = c.document("stored_push_result", site);
    if (!text) continue;
    ASSERT_FALSE(c.accepted_at("stored_push_result")) << "commitSeq is an integer";
    EXPECT_THROW(push::parse_push_result(*text), push::IdempotencyCacheMiss);
  }
  // Within int64 but past 2^53: no safe integer either (it wrapped before).
  EXPECT_THROW(push::parse_push_result(fill_placeholders(site, {{"value", "9223372036854775808"}})),
               push::IdempotencyCacheMiss);
  EXPECT_THROW(push::parse_push_result(fill_placeholders(site, {{"value", "9007199254740992"}})),
               push::IdempotencyCacheMiss);
}

}  // namespace
}  // namespace ssp::harness
