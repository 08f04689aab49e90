// JSON text from outside is read as upstream's JSON.parse reads it: a leading
// byte-order mark (U+FEFF), which nlohmann::json would skip, is refused
// wherever such text is parsed — signed-URL payloads (SU-R12), schema files
// (IR-10) and stored layouts (SJ-1), asked of the candidate. The reference's
// own rule (JSON-1) and stored-scopes reader (SJ-2) are self-tests
// (self-tests/json_input_test.cpp). The X-Syncular-Scopes header is DL-R11
// (s5_5_scopes_header_test.cpp); the tools' arguments are ADM-TOOL-19 and TOOL-6.
#include <gmock/gmock.h>

#include "harness/fixtures/download_fixtures.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/download/signed_url_verdict.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::harness {
namespace {

// U+FEFF in UTF-8, spelled out rather than taken from the code under test.
const std::string kBom = "\xEF\xBB\xBF";

// Verifying needs a store (the D12 epoch rule), so this runs on every backend.
class JsonInputSignedUrl : public SegmentStoreTest {};
SSP_ALL_BACKENDS(JsonInputSignedUrl);

TEST_P(JsonInputSignedUrl, SU_R12_ASignedPayloadWithAByteOrderMarkIsMalformed) {
  record_spec("§5.4", "SU-R12");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::signed_url);
  SignedUrlArea& urls = candidate().signed_urls();
  const UrlSigningKey key{Bytes(32, 7)};
  const SegmentMetadata metadata = published_for(kScopesP1);
  const std::string id = store().put(metadata, payload("signed"), kNow).segment_id;
  const std::string claims = R"({"v":1,"seg":")" + id + R"(","sd":")" + metadata.scope_digest +
                             R"(","aud":")" + urls.audience(key, "p") + R"(","exp":1750000600})";
  const auto epoch_of = [](const std::string& partition) -> std::optional<std::string> {
    if (partition == "p") return std::string("epoch-1");
    return std::nullopt;
  };
  // Signed correctly, so only the mark can make it malformed.
  EXPECT_TRUE(urls.verify(key, urls.sign_payload(key, claims), id, store(), epoch_of, kNow)
                  .accepted());
  const SignedUrlVerdict marked =
      urls.verify(key, urls.sign_payload(key, kBom + claims), id, store(), epoch_of, kNow);
  ASSERT_FALSE(marked.accepted());
  EXPECT_EQ(marked.refusal, TokenRefusal::malformed);
  ASSERT_TRUE(marked.error);
  EXPECT_EQ(marked.error->code(), error_code::forbidden);
}

TEST(JsonInput, IR_10_ASchemaJsonWithAByteOrderMarkIsRefused) {
  record_spec("§2.4", "IR-10");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::schema);
  SchemaArea& schema = current_candidate().schema();
  const std::string text = read_fixture("storage/example_v3.schema.json");
  EXPECT_EQ(schema.parse(text), example_schema());
  EXPECT_THROW(schema.parse(kBom + text), storage::SchemaError);
}

class JsonInputStorage : public StorageTest {};
SSP_SQL_BACKENDS(JsonInputStorage);

TEST_P(JsonInputStorage, SJ_1_StoredLayoutsWithAByteOrderMarkAreUnreadable) {
  record_spec("§2.4", "SJ-1");
  storage().ensure_schema(example_compiled());
  // The stored layouts, unchanged but for the mark: upstream's JSON.parse fails on them.
  database().exec("UPDATE sync_schema_meta SET layouts = '" + kBom + kExampleLayoutsJson + "'");
  const std::string before = dump();
  for (std::int64_t version : {3, 4}) {
    SCOPED_TRACE(version);
    try {
      open()->ensure_schema(compiled(example_schema(), version));
      ADD_FAILURE() << "stored layouts with a byte-order mark were read";
    } catch (const storage::SchemaRefusal& refusal) {
      EXPECT_EQ(refusal.reason(), storage::RefusalReason::layouts_unreadable);
    }
    EXPECT_EQ(dump(), before);
  }
}

}  // namespace
}  // namespace ssp::harness
