// The reference's JSON input rule (json_input.hpp): a leading byte-order mark
// (U+FEFF), which nlohmann::json would skip, is refused as upstream's
// JSON.parse refuses it (JSON-1), and its stored-scopes reader applies it
// (SJ-2). What a candidate refuses is asked in spec-tests/storage/s2_4_json_input_test.cpp.
#include "ssp/encoding/json_input.hpp"

#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "json_refusal.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::harness {
namespace {

// U+FEFF in UTF-8, spelled out rather than taken from the code under test.
const std::string kBom = "\xEF\xBB\xBF";

TEST(JsonInputRule, JSON_1_ALeadingByteOrderMarkIsRefusedAsJsonParseRefusesIt) {
  record_spec("Conventions", "JSON-1");
  for (const std::string value : {"{\"a\":[\"1\"]}", "[]", "1", "\"s\"", "null"}) {
    SCOPED_TRACE(value);
    // Both flavours: the reference uses ordered and unordered objects.
    EXPECT_EQ(refusal_of<nlohmann::json>(kBom + value),
              "a byte-order mark (U+FEFF) precedes the value");
    EXPECT_EQ(refusal_of<nlohmann::ordered_json>(kBom + value),
              "a byte-order mark (U+FEFF) precedes the value");
    // U+FEFF is not JSON whitespace anywhere else either.
    EXPECT_NE(refusal_of<nlohmann::json>(" " + kBom + value), "(accepted)");
    EXPECT_NE(refusal_of<nlohmann::json>(value + kBom), "(accepted)");
    EXPECT_NE(refusal_of<nlohmann::json>(kBom + kBom + value), "(accepted)");
    // JSON whitespace around the value is fine.
    EXPECT_EQ(refusal_of<nlohmann::json>(" \t\r\n" + value + "\n"), "(accepted)");
  }
  EXPECT_NE(refusal_of<nlohmann::json>(kBom), "(accepted)");
  EXPECT_NE(refusal_of<nlohmann::json>(""), "(accepted)");
  // Inside a string U+FEFF is an ordinary character.
  EXPECT_EQ(parse_json_input<nlohmann::json>("[\"" + kBom + "x\"]"),
            nlohmann::json::array({kBom + "x"}));
  // The parser callback still sees every event.
  int keys = 0;
  parse_json_input<nlohmann::json>(R"({"a":1,"b":{"c":2}})",
                                   [&](int, nlohmann::json::parse_event_t event, nlohmann::json&) {
                                     keys += event == nlohmann::json::parse_event_t::key;
                                     return true;
                                   });
  EXPECT_EQ(keys, 3);
}

TEST(StoredScopesJson, SJ_2_StoredScopesWithAByteOrderMarkAreRefused) {
  record_spec("§2.4", "SJ-2");
  const std::string scopes = R"({"project_id":"p1"})";
  EXPECT_EQ(storage::parse_scopes_json(scopes, "tasks"),
            (std::map<std::string, std::string>{{"project_id", "p1"}}));
  EXPECT_THROW(storage::parse_scopes_json(kBom + scopes, "tasks"), StorageError);
}

}  // namespace
}  // namespace ssp::harness
