// SSP2 §3.5 scope digest and §11.2 canonical JSON (design notes §4 R50; SD-R*
// are this project's rows in docs/requirements/download.md). Golden values
// are derived by hand from the rule: the canonical text is written out here,
// and its digest is the SHA-256 of exactly those UTF-8 bytes. More vectors
// come from fixtures/known-answers/scope_digests.json, written with
// JSON.stringify and sha256sum (fixtures/known-answers/generate.js).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/fixture_files.hpp"
#include "harness/spec.hpp"
#include "ssp/scope_digest.hpp"
#include "ssp/utf16_order.hpp"

namespace ssp::harness {
namespace {

// U+E000 (BMP private use, UTF-8 EE 80 80, UTF-16 E000) and U+1F600 (UTF-8
// F0 9F 98 80, UTF-16 D83D DE00): UTF-8 puts U+E000 first, UTF-16 U+1F600.
const std::string kPrivateUse = "\xee\x80\x80";
const std::string kGrinning = "\xf0\x9f\x98\x80";

TEST(ScopeDigest, R50_ProjectIdGoldenValue) {
  record_spec("§11.2", "R50");
  const ScopeMap scopes = {{"project_id", {"p1"}}};
  EXPECT_EQ(canonical_scope_json(scopes), R"({"project_id":["p1"]})");
  EXPECT_EQ(scope_digest(scopes),
            "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6");
}

TEST(ScopeDigest, R50_KeysSortedValuesDeduplicatedAndSorted) {
  record_spec("§11.2", "R50");
  const ScopeMap scopes = {{"b", {"y", "x", "x"}}, {"a", {"1"}}};
  EXPECT_EQ(canonical_scope_json(scopes), R"({"a":["1"],"b":["x","y"]})");
  EXPECT_EQ(scope_digest(scopes),
            "d6eae071419983e790daed35ef4abff53d8db9edf7718ba8c9f196600c80d457");
}

TEST(ScopeDigest, R50_MixedPlaneStringsSortByUtf16CodeUnits) {
  record_spec("§11.2", "R50");
  // Keys {U+E000, U+1F600}; U+E000's values {U+E000, U+1F600, "a", U+1F600}.
  const ScopeMap scopes = {{kPrivateUse, {kPrivateUse, kGrinning, "a", kGrinning}},
                           {kGrinning, {"z"}}};
  // By hand: "a" (0061) < U+1F600 (D83D…) < U+E000 (E000), for keys and values.
  const std::string canonical = "{\"" + kGrinning + "\":[\"z\"],\"" + kPrivateUse +
                                "\":[\"a\",\"" + kGrinning + "\",\"" + kPrivateUse + "\"]}";
  EXPECT_EQ(canonical_scope_json(scopes), canonical);
  EXPECT_EQ(scope_digest(scopes),
            "ce36bcfe3f2a2f3a7274ed6d3ffb833c175047de69fda7f3f6142cc1277b08f5");
  // The UTF-8 byte order would give a different text, hence a different digest
  // (01203cfe…c0d0): the one place a byte-sorting implementation goes wrong.
  EXPECT_NE(scope_digest(scopes),
            "01203cfe00588339d772e8cde8f9510a32a9639c664cbbf3bf9177528990c0d0");
}

TEST(ScopeDigest, R50_StringsAreEscapedAsJsonStringifyDoes) {
  record_spec("§11.2", "R50");
  // U+000B and U+001F have escapes with hex letters: lower case, as
  // JSON.stringify writes them (\u000b, not \u000B).
  const ScopeMap scopes = {
      {"k", {"q\"uote", "back\\slash", "nl\n", std::string("ctl\x01"), "vt\x0b", "us\x1f",
             "ls\xe2\x80\xa8", "\xc3\xa9", "tab\t"}}};
  // Sorted by code unit: b c l n q t u v é; U+2028 stays raw, U+0001 is \u0001.
  EXPECT_EQ(canonical_scope_json(scopes),
            "{\"k\":[\"back\\\\slash\",\"ctl\\u0001\",\"ls\xe2\x80\xa8\",\"nl\\n\",\"q\\\"uote\","
            "\"tab\\t\",\"us\\u001f\",\"vt\\u000b\",\"\xc3\xa9\"]}");
  // fixtures/known-answers/scope_digests.json, vector "escapes" (sha256sum).
  EXPECT_EQ(scope_digest(scopes),
            "8c95e62f94094b9d201bd05951285832a45301c8d38deea364336784b8c9e2a3");
}

TEST(ScopeDigest, R50_GoldenVectorsFromJsonStringifyAndSha256sum) {
  record_spec("§11.2", "R50");
  const auto document =
      nlohmann::json::parse(read_fixture("known-answers/scope_digests.json"));
  const auto& vectors = document.at("vectors");
  ASSERT_GE(vectors.size(), 10u);
  for (const auto& vector : vectors) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    const ScopeMap scopes = vector.at("scopes").get<ScopeMap>();
    EXPECT_EQ(canonical_scope_json(scopes), vector.at("canonical").get<std::string>());
    EXPECT_EQ(scope_digest(scopes), vector.at("digest").get<std::string>());
  }
}

TEST(ScopeDigest, SD_R1_EmptyMapAndEmptyListsRenderWithoutWhitespace) {
  record_spec("§11.2", "SD-R1");
  EXPECT_EQ(canonical_scope_json({}), "{}");
  EXPECT_EQ(scope_digest({}), "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  EXPECT_EQ(canonical_scope_json({{"a", {}}, {"b", {"x"}}}), R"({"a":[],"b":["x"]})");
}

TEST(ScopeDigest, SD_R2_DigestDependsOnlyOnTheScopeSet) {
  record_spec("§3.5", "SD-R2");
  const std::string digest = scope_digest({{"project_id", {"p1", "p2"}}, {"org_id", {"o1"}}});
  EXPECT_EQ(digest, scope_digest({{"org_id", {"o1", "o1"}}, {"project_id", {"p2", "p1", "p2"}}}));
  EXPECT_EQ(digest, scope_digest(parse_scope_map(
                        R"( {"project_id" : ["p2","p1"], "org_id":["o1"]} )")));
  EXPECT_NE(digest, scope_digest({{"project_id", {"p1"}}, {"org_id", {"o1"}}}));
}

TEST(ScopeDigest, SD_R3_Utf16OrderDiffersFromByteOrderOnlyAcrossPlanes) {
  record_spec("§11.2", "SD-R3");
  EXPECT_LT(compare_utf16(kGrinning, kPrivateUse), 0);
  EXPECT_GT(kGrinning, kPrivateUse);  // bytes: F0 > EE
  EXPECT_LT(compare_utf16("\xed\x9f\xbf", kGrinning), 0);          // U+D7FF < surrogates
  EXPECT_LT(compare_utf16(kGrinning, "\xef\xbf\xbf"), 0);          // < U+FFFF
  EXPECT_LT(compare_utf16("\xf0\x90\x80\x80", kGrinning), 0);      // U+10000 < U+1F600
  EXPECT_LT(compare_utf16("\xf4\x8f\xbf\xbf", kPrivateUse), 0);    // U+10FFFF < U+E000
  EXPECT_EQ(compare_utf16("same", "same"), 0);
  EXPECT_LT(compare_utf16("ab", "abc"), 0);
  EXPECT_GT(compare_utf16("b", "abc"), 0);
  EXPECT_LT(compare_utf16("", "a"), 0);
}

TEST(ScopeDigest, SD_R4_ParseRefusesWhatIsNotAMapOfStringLists) {
  record_spec("§5.5", "SD-R4");
  for (const char* text : {"", "nope", "[]", "\"s\"", "1", "null", R"({"a":"x"})",
                           R"({"a":[1]})", R"({"a":[["x"]]})", R"({"a":["\udc00"]})",
                           "{\"a\":[\"\xc3\x28\"]}"}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(parse_scope_map(text), InvalidScopeMap);
  }
  try {
    parse_scope_map(R"({"ok":["1"],"bad":7})");
    FAIL() << "a non-list value must be refused";
  } catch (const InvalidScopeMap& invalid) {
    EXPECT_THAT(invalid.what(), ::testing::HasSubstr("'bad'"));
  }
  // A repeated key keeps its last value, as JSON.parse does.
  EXPECT_EQ(parse_scope_map(R"({"a":["1"],"a":["2"]})"), (ScopeMap{{"a", {"2"}}}));
  // Escapes decode to the characters they name, surrogate pairs included.
  EXPECT_EQ(parse_scope_map(R"({"a":["\ud83d\ude00","\u00e9"]})"),
            (ScopeMap{{"a", {kGrinning, "\xc3\xa9"}}}));
  // canonical_scope_json refuses text that is not UTF-8 rather than hashing it.
  EXPECT_THROW(canonical_scope_json({{"a", {"\xff"}}}), InvalidScopeMap);
}

TEST(ScopeDigest, SD_R5_ScopeDigestCommandReportsCanonicalTextAndDigest) {
  record_spec("§3.5", "SD-R5");
  EXPECT_EQ(scope_digest_report_json(parse_scope_map(R"({"b":["y","x","x"],"a":["1"]})")),
            R"({"canonicalJson":"{\"a\":[\"1\"],\"b\":[\"x\",\"y\"]}",)"
            R"("scopeDigest":"d6eae071419983e790daed35ef4abff53d8db9edf7718ba8c9f196600c80d457"})");
}

}  // namespace
}  // namespace ssp::harness
