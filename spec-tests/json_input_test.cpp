// JSON text from outside the reference is read as upstream's JSON.parse reads
// it (json_input.hpp): a leading byte-order mark (U+FEFF), which nlohmann::json
// would skip, is refused wherever such text is parsed — the rule itself
// (JSON-1), signed-URL payloads (SU-R12), schema files (IR-10) and stored
// JSON (SJ-1). The X-Syncular-Scopes header is DL-R11
// (s5_5_scopes_header_test.cpp); the tools' arguments are ADM-TOOL-19 and TOOL-6.
#include <gmock/gmock.h>

#include "harness/download_fixtures.hpp"
#include "ssp/scope_digest.hpp"
#include "harness/storage_fixtures.hpp"
#include "ssp/json_input.hpp"
#include "ssp/signed_url.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/schema_json.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// U+FEFF in UTF-8, spelled out rather than taken from the code under test.
const std::string kBom = "\xEF\xBB\xBF";

// Why `text` is refused, or "(accepted)".
template <typename Json>
std::string refusal_of(const std::string& text) {
  try {
    parse_json_input<Json>(text);
  } catch (const JsonSyntaxError& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(JsonInput, JSON_1_ALeadingByteOrderMarkIsRefusedAsJsonParseRefusesIt) {
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

// Verifying needs a store (the D12 epoch rule), so this runs on every backend.
class JsonInputSignedUrl : public SegmentStoreTest {};
SSP_ALL_BACKENDS(JsonInputSignedUrl);

TEST_P(JsonInputSignedUrl, SU_R12_ASignedPayloadWithAByteOrderMarkIsMalformed) {
  record_spec("§5.4", "SU-R12");
  const std::string id = store().put(published_for(kScopesP1), payload("signed"), kNow).segment_id;
  const SegmentUrlSigner signer(Bytes(32, 7));
  const std::string sd = scope_digest(kScopesP1);
  const std::string claims = R"({"v":1,"seg":")" + id + R"(","sd":")" + sd + R"(","aud":")" +
                             signer.audience("p") + R"(","exp":1750000600})";
  const auto epoch_of = [](const std::string& partition) -> std::optional<std::string> {
    if (partition == "p") return std::string("epoch-1");
    return std::nullopt;
  };
  // Signed correctly, so only the mark can make it malformed.
  EXPECT_TRUE(signer.verify(signer.sign_payload(claims), id, store(), epoch_of, kNow).accepted());
  const SignedUrlVerdict marked =
      signer.verify(signer.sign_payload(kBom + claims), id, store(), epoch_of, kNow);
  ASSERT_FALSE(marked.accepted());
  EXPECT_EQ(marked.refusal, TokenRefusal::malformed);
  ASSERT_TRUE(marked.error);
  EXPECT_EQ(marked.error->code(), error_code::forbidden);
}

TEST(JsonInput, IR_10_ASchemaJsonWithAByteOrderMarkIsRefused) {
  record_spec("§2.4", "IR-10");
  const std::string schema = storage::schema_to_json(example_schema());
  EXPECT_EQ(storage::parse_schema_json(schema), example_schema());
  try {
    storage::parse_schema_json(kBom + schema);
    ADD_FAILURE() << "a schema with a byte-order mark was accepted";
  } catch (const storage::SchemaError& error) {
    EXPECT_THAT(error.what(),
                HasSubstr("not valid JSON: a byte-order mark (U+FEFF) precedes the value"));
  }
}

class JsonInputStorage : public StorageTest {};
SSP_SQL_BACKENDS(JsonInputStorage);

TEST_P(JsonInputStorage, SJ_1_StoredLayoutsWithAByteOrderMarkAreUnreadable) {
  record_spec("§2.4", "SJ-1");
  storage().ensure_schema(example_compiled());
  // The stored layouts, unchanged but for the mark: upstream's JSON.parse fails on them.
  const std::string layouts = storage::layouts_json(example_compiled());
  database().exec("UPDATE sync_schema_meta SET layouts = '" + kBom + layouts + "'");
  const std::string before = dump();
  for (std::int64_t version : {3, 4}) {
    SCOPED_TRACE(version);
    try {
      open()->ensure_schema(compiled(example_schema(), version));
      ADD_FAILURE() << "stored layouts with a byte-order mark were read";
    } catch (const storage::SchemaRefusal& refusal) {
      EXPECT_EQ(refusal.reason(), storage::RefusalReason::layouts_unreadable);
      EXPECT_THAT(refusal.what(), HasSubstr("a byte-order mark (U+FEFF) precedes the value"));
    }
    EXPECT_EQ(dump(), before);
  }
}

TEST(JsonInput, SJ_1_StoredScopesWithAByteOrderMarkAreRefused) {
  record_spec("§2.4", "SJ-1");
  const std::string scopes = R"({"project_id":"p1"})";
  EXPECT_EQ(storage::parse_scopes_json(scopes, "tasks"),
            (std::map<std::string, std::string>{{"project_id", "p1"}}));
  EXPECT_THROW(storage::parse_scopes_json(kBom + scopes, "tasks"), StorageError);
}

}  // namespace
}  // namespace ssp::harness
