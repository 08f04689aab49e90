// SSP2 §3.5 scope digest and §11.2 canonical JSON (design notes §4 R50; SD-R*
// are this project's rows in docs/requirements/download.md), asked of the
// candidate's scope area. Known answers come from outside the code under
// test: fixtures/cases/scope/canonical_vectors.json (canonical text by hand,
// digests by python3 hashlib) and fixtures/known-answers/scope_digests.json
// (JSON.stringify and sha256sum, fixtures/known-answers/generate.js).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/scopes/scope_map.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// U+E000 (BMP private use, UTF-8 EE 80 80, UTF-16 E000) and U+1F600 (UTF-8
// F0 9F 98 80, UTF-16 D83D DE00): UTF-8 puts U+E000 first, UTF-16 U+1F600.
const std::string kPrivateUse = "\xee\x80\x80";
const std::string kGrinning = "\xf0\x9f\x98\x80";

std::string from_hex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

class ScopeDigest : public ::testing::Test {
 protected:
  void SetUp() override { SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope); }
  ScopeArea& scope() { return current_candidate().scope(); }
};

// Each vector's canonical text and digest as the candidate answers them.
void expect_vectors(ScopeArea& scope, const nlohmann::json& vectors) {
  for (const auto& vector : vectors) {
    SCOPED_TRACE(vector.at("name").get<std::string>());
    const ScopeDigestAnswer answer = scope.digest(vector.at("scopes").get<ScopeMap>());
    EXPECT_EQ(answer.canonical_json, vector.at("canonical").get<std::string>());
    EXPECT_EQ(answer.scope_digest, vector.at("digest").get<std::string>());
    // A byte-sorting implementation writes another text, hence this digest.
    if (vector.contains("byte_order_digest")) {
      EXPECT_NE(answer.scope_digest, vector.at("byte_order_digest").get<std::string>());
    }
  }
}

TEST_F(ScopeDigest, R50_HandDerivedCanonicalTextsAndTheirSha256) {
  record_spec("§11.2", "R50");
  const auto document = nlohmann::json::parse(read_fixture("cases/scope/canonical_vectors.json"));
  ASSERT_GE(document.at("cases").size(), 4u);
  expect_vectors(scope(), document.at("cases"));
}

TEST_F(ScopeDigest, R50_GoldenVectorsFromJsonStringifyAndSha256sum) {
  record_spec("§11.2", "R50");
  const auto document = nlohmann::json::parse(read_fixture("known-answers/scope_digests.json"));
  ASSERT_GE(document.at("vectors").size(), 10u);
  expect_vectors(scope(), document.at("vectors"));
}

TEST_F(ScopeDigest, SD_R1_EmptyMapAndEmptyListsRenderWithoutWhitespace) {
  record_spec("§11.2", "SD-R1");
  EXPECT_EQ(scope().digest({}).canonical_json, "{}");
  EXPECT_EQ(scope().digest({{"a", {}}, {"b", {"x"}}}).canonical_json, R"({"a":[],"b":["x"]})");
}

TEST_F(ScopeDigest, SD_R2_DigestDependsOnlyOnTheScopeSet) {
  record_spec("§3.5", "SD-R2");
  const std::string digest =
      scope().digest({{"project_id", {"p1", "p2"}}, {"org_id", {"o1"}}}).scope_digest;
  EXPECT_EQ(digest,
            scope().digest({{"org_id", {"o1", "o1"}}, {"project_id", {"p2", "p1", "p2"}}})
                .scope_digest);
  EXPECT_EQ(digest,
            scope()
                .digest(scope().parse(R"( {"project_id" : ["p2","p1"], "org_id":["o1"]} )"))
                .scope_digest);
  EXPECT_NE(digest, scope().digest({{"project_id", {"p1"}}, {"org_id", {"o1"}}}).scope_digest);
}

TEST_F(ScopeDigest, SD_R3_Utf16OrderDiffersFromByteOrderOnlyAcrossPlanes) {
  record_spec("§11.2", "SD-R3");
  // Pairs (smaller, larger) in UTF-16 code units, ordered by hand.
  const std::pair<std::string, std::string> ordered[] = {
      {kGrinning, kPrivateUse},                 // D83D < E000, though F0 > EE in bytes
      {"\xed\x9f\xbf", kGrinning},              // U+D7FF < the surrogates
      {kGrinning, "\xef\xbf\xbf"},              // < U+FFFF
      {"\xf0\x90\x80\x80", kGrinning},          // U+10000 < U+1F600
      {"\xf4\x8f\xbf\xbf", kPrivateUse},        // U+10FFFF < U+E000
      {"ab", "abc"},                            // a prefix first
      {"abc", "b"},
      {"", "a"},
  };
  for (const auto& [small, large] : ordered) {
    SCOPED_TRACE(small + " < " + large);
    // As keys and as values, whatever order they are given in.
    EXPECT_EQ(scope().digest({{large, {}}, {small, {}}}).canonical_json,
              "{\"" + small + "\":[],\"" + large + "\":[]}");
    EXPECT_EQ(scope().digest({{"k", {large, small}}}).canonical_json,
              "{\"k\":[\"" + small + "\",\"" + large + "\"]}");
  }
}

TEST_F(ScopeDigest, SD_R4_ParseRefusesWhatIsNotAMapOfStringLists) {
  record_spec("§5.5", "SD-R4");
  const auto cases = nlohmann::json::parse(read_fixture("cases/scope/parse_cases.json"));
  for (const auto& c : cases.at("refused")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string text = c.contains("text_hex") ? from_hex(c.at("text_hex").get<std::string>())
                                                    : c.at("text").get<std::string>();
    EXPECT_THROW(scope().parse(text), InvalidScopeMap);
  }
  for (const auto& c : cases.at("refused_naming_the_key")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    try {
      scope().parse(c.at("text").get<std::string>());
      ADD_FAILURE() << "accepted";
    } catch (const InvalidScopeMap& invalid) {
      EXPECT_THAT(invalid.what(), HasSubstr(c.at("names").get<std::string>()));
    }
  }
  for (const auto& c : cases.at("accepted")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    EXPECT_EQ(scope().parse(c.at("text").get<std::string>()), c.at("scopes").get<ScopeMap>());
  }
  // Text that is not UTF-8 is refused rather than hashed.
  EXPECT_THROW(scope().digest({{"a", {"\xff"}}}), InvalidScopeMap);
}

}  // namespace
}  // namespace ssp::harness
