// SSP2 §5.4 native signed-URL tokens (`st`): mint, verify, and the D12 rule
// that any publication of the token's partition in its current epoch may carry
// `sd` (SU-R* in docs/requirements/download.md), asked of the candidate's
// signed-URL area. Golden values were computed from the §5.4 formula with an
// independent HMAC-SHA256 (Python hmac); the minted token and aud are only
// golden at the reference level (SU-R1-REF, SU-R2-REF), since §5.4 leaves aud
// to the host. The tables of malformed tokens and bad claims are
// fixtures/cases/signed_url/. The base64url codec itself is a self-test
// (self-tests/base64url_test.cpp).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

#include "harness/catalog/requirement_level.hpp"
#include "harness/fixtures/case_table.hpp"
#include "harness/fixtures/download_fixtures.hpp"
#include "harness/util/require_found.hpp"
#include "ssp/download/signed_url_verdict.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

const std::string kBytesId =  // bytes 01 02 03
    "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81";
const ScopeMap& kP1 = kScopesP1;
const ScopeMap& kP2 = kScopesP2;
constexpr std::int64_t kTenMinutes = 10 * 60 * 1000;

// The token the reference mints for kP1 in partition p at kNow with a
// ten-minute TTL under test_key(), and its payload text (python3 hmac and
// base64, §5.4 formula); its aud is the reference's derivation (SU-R2-REF).
const std::string kGoldenToken =
    "eyJ2IjoxLCJzZWciOiJzaGEyNTY6MDM5MDU4YzZmMmMwY2I0OTJjNTMzYjBhNGQxNGVmNzdjYzBmNzhhYmNj"
    "Y2VkNTI4N2Q4NGExYTIwMTFjZmI4MSIsInNkIjoiNDZjZjE4ZDZiYjJiNTdlYzk4MTE2MzM1Yzk4ODgxMGVk"
    "NDY0YTQ0N2JkNTc0Njk1YmMxNjVkYTc2MzE0MTRmNiIsImF1ZCI6IjRBNlF5UG1JbjRlU25YYU5kaFgyZGo0"
    "MWRyMkZnNWtuNGoyeVZfcVBZM28iLCJleHAiOjE3NTAwMDA2MDB9."
    "4fHIT4MW_jco1NcZy313d27yC2J3wjFIylVN-WCawYs";
const std::string kGoldenAudience = "4A6QyPmIn4eSnXaNdhX2dj41dr2Fg5kn4j2yV_qPY3o";  // of p
const std::string kGoldenPayload = R"({"v":1,"seg":")" + kBytesId + R"(","sd":")" + kDigestP1 +
                                   R"(","aud":")" + kGoldenAudience + R"(","exp":1750000600})";

Bytes test_key() {
  Bytes key;
  for (int i = 0; i < 32; ++i) key.push_back(static_cast<std::uint8_t>(i));
  return key;
}

// The key every test signs with: test_key() and the full 60 s skew.
UrlSigningKey signing_key(std::int64_t skew_seconds = kMaxSignedUrlSkewSeconds) {
  return UrlSigningKey{test_key(), skew_seconds};
}

// Partition p is in epoch-1 (base metadata); q in epoch-1 too; others unknown.
std::optional<std::string> current_epoch(const std::string& partition) {
  if (partition == "p" || partition == "q") return std::string("epoch-1");
  return std::nullopt;
}

class SignedUrl : public SegmentStoreTest {
 protected:
  void SetUp() override {
    SegmentStoreTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::signed_url);
  }

  SignedUrlArea& urls() { return candidate().signed_urls(); }

  SignedSegmentUrl mint(const std::string& segment_id, const std::string& scope_digest,
                        const std::string& partition, std::int64_t now_ms,
                        const UrlSigningKey& key = signing_key()) {
    return urls().mint(key, segment_id, scope_digest, partition, now_ms, kTenMinutes);
  }
  SignedUrlVerdict verify(const std::string& token, const std::string& path_id, std::int64_t now,
                          const UrlSigningKey& key = signing_key()) {
    return urls().verify(key, token, path_id, store(), current_epoch, now);
  }
  // Runs the cases of su_r7_bad_claims.json at `level` (a case without a
  // "level" is MUST): each refused as malformed, the control accepted.
  void expect_bad_claims_refused(RequirementLevel level);
  // Runs the cases of su_r7_malformed_tokens.json at `level` (a case without
  // a "level" is MUST), built from the candidate's own token: each refused.
  void expect_malformed_tokens_refused(RequirementLevel level);
};
SSP_ALL_BACKENDS(SignedUrl);

// The payload text of a token: its part before the '.', base64url-decoded
// here (RFC 4648 §5 alphabet, no padding) rather than by the reference's
// codec, which conformance tests do not call (TRACE-9). Nothing when there is
// no '.' or a character outside the alphabet.
std::optional<std::string> payload_text(const std::string& token) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const std::size_t dot = token.find('.');
  if (dot == std::string::npos) return std::nullopt;
  std::string text;
  std::uint32_t bits = 0;
  int pending = 0;  // bits read and not yet written out
  for (const char c : std::string_view(token).substr(0, dot)) {
    const std::size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(value);
    pending += 6;
    if (pending >= 8) {
      pending -= 8;
      text.push_back(static_cast<char>((bits >> pending) & 0xffu));
    }
  }
  return text;
}

// A refusal's name, or "accepted".
std::string refusal_text(const SignedUrlVerdict& verdict) {
  return verdict.refusal ? std::string(token_refusal_name(*verdict.refusal)) : "accepted";
}

// A refusal as a client sees it: the code, nothing served. The kind a
// verdict names (TokenRefusal) is the reference's attribution
// (D-TOKEN-REFUSAL-KINDS), which no client sees: only a reference-level test
// asks for one.
void expect_refused(const SignedUrlVerdict& verdict, std::string_view code,
                    std::optional<TokenRefusal> kind = std::nullopt) {
  ASSERT_FALSE(verdict.accepted()) << "expected " << code;
  if (kind) {
    EXPECT_EQ(verdict.refusal, *kind) << refusal_text(verdict);
  }
  ASSERT_TRUE(verdict.error);
  EXPECT_EQ(verdict.error->code(), code);
  EXPECT_FALSE(verdict.record);
  EXPECT_TRUE(verdict.bytes.empty());
}

void SignedUrl::expect_bad_claims_refused(RequirementLevel level) {
  const std::map<std::string, std::string> claims = {
      {"seg", kBytesId}, {"sd", kDigestP1}, {"aud", urls().audience(signing_key(), "p")}};
  int run = 0;
  for (const auto& c : read_case_table("cases/signed_url/su_r7_bad_claims.json")) {
    const bool control = c.at("accepted").get<bool>();
    if (case_level(c) != level && !control) continue;
    ++run;
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string payload = fill_placeholders(c.at("payload").get<std::string>(), claims);
    const std::string token = urls().sign_payload(signing_key(), payload);
    const auto verdict = verify(token, kBytesId, kNow);
    if (control) {
      EXPECT_TRUE(verdict.accepted()) << refusal_text(verdict);
    } else {
      // The kind only where the reference's own choices are the level.
      expect_refused(verdict, error_code::forbidden,
                     level == RequirementLevel::reference
                         ? std::optional<TokenRefusal>(TokenRefusal::malformed)
                         : std::nullopt);
    }
  }
  EXPECT_GE(run, 2) << "no case of this level besides the control";
}

void SignedUrl::expect_malformed_tokens_refused(RequirementLevel level) {
  // The cases are written around the candidate's own token, whatever its aud.
  const std::string good = mint(kBytesId, kDigestP1, "p", kNow).token;
  const std::size_t dot = good.find('.');
  ASSERT_NE(dot, std::string::npos) << good;
  const std::map<std::string, std::string> parts = {
      {"good", good}, {"body", good.substr(0, dot)}, {"mac", good.substr(dot + 1)}};
  for (const auto& c : read_case_table("cases/signed_url/su_r7_malformed_tokens.json")) {
    if (case_level(c) != level) continue;
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string token = fill_placeholders(c.at("token").get<std::string>(), parts);
    const auto verdict = verify(token, kBytesId, kNow);
    ASSERT_FALSE(verdict.accepted());
    if (level == RequirementLevel::reference) {  // the kind: the reference's attribution
      EXPECT_TRUE(verdict.refusal == TokenRefusal::malformed ||
                  verdict.refusal == TokenRefusal::bad_signature)
          << refusal_text(verdict);
    }
    ASSERT_TRUE(verdict.error);
    EXPECT_EQ(verdict.error->code(), error_code::forbidden);
  }
}

TEST_P(SignedUrl, SU_R1_MintedTokenHasTheSpecLayoutAndVerifies) {
  record_spec("§5.4", "SU-R1");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  // The formula on a given payload: base64url(payload) "." base64url(HMAC-
  // SHA256(key, payload)); the aud inside kGoldenPayload is only text here.
  EXPECT_EQ(urls().sign_payload(signing_key(), kGoldenPayload), kGoldenToken);

  // A minted token is its own payload so signed, and the payload carries the
  // claims the verifier checks. aud is the candidate's own value for p: §5.4
  // makes it host-chosen, so no golden aud or token here (SU-R1-REF).
  const SignedSegmentUrl url = mint(kBytesId, kDigestP1, "p", kNow);
  const std::optional<std::string> text = payload_text(url.token);
  ASSERT_TRUE(text) << url.token;
  EXPECT_EQ(urls().sign_payload(signing_key(), *text), url.token);
  const nlohmann::json claims = nlohmann::json::parse(*text, nullptr, false);
  ASSERT_TRUE(claims.is_object()) << *text;
  const nlohmann::json expected = {{"v", 1},
                                   {"seg", kBytesId},
                                   {"sd", kDigestP1},
                                   {"aud", urls().audience(signing_key(), "p")},
                                   {"exp", 1'750'000'600}};  // unix seconds
  for (auto claim = expected.begin(); claim != expected.end(); ++claim) {
    ASSERT_TRUE(claims.contains(claim.key())) << claim.key() << " missing from " << *text;
    EXPECT_EQ(claims.at(claim.key()), claim.value()) << claim.key();
  }

  const auto verdict = verify(url.token, kBytesId, kNow + 1);
  ASSERT_TRUE(verdict.accepted()) << refusal_text(verdict);
  EXPECT_EQ(verdict.bytes, (Bytes{1, 2, 3}));
  ASSERT_TRUE(verdict.record);
  EXPECT_EQ(verdict.record->scope_digests, std::vector<std::string>{kDigestP1});
  ASSERT_TRUE(verdict.claims);
  EXPECT_EQ(verdict.claims->exp, 1'750'000'600);
}

// Reference level (docs/decisions.md, D-SU-TOKEN): §5.4 lets the host choose
// aud (its example is another derivation) and the payload's spelling, and
// says nothing of rounding; the reference's choices make this exact token.
TEST_P(SignedUrl, SU_R1_REF_TheMintedTokenIsTheReferencesGoldenToken) {
  record_spec("§5.4", "SU-R1-REF");
  const SignedSegmentUrl url = mint(kBytesId, kDigestP1, "p", kNow);
  EXPECT_EQ(url.token, kGoldenToken);
  EXPECT_EQ(url.url_expires_at_ms, 1'750'000'600'000);  // exp * 1000
  // A TTL that is not a whole number of seconds rounds exp down, never up.
  EXPECT_EQ(mint(kBytesId, "d", "p", kNow + 999).url_expires_at_ms, 1'750'000'600'000);
}

TEST_P(SignedUrl, SU_R2_AudienceIsAStableKeyedDerivationOfThePartition) {
  record_spec("§5.4", "SU-R2");
  const UrlSigningKey key = signing_key();
  EXPECT_EQ(urls().audience(key, "p"), urls().audience(signing_key(), "p"));
  // Bound to the partition: another partition's value differs (SU-R4 refuses it).
  EXPECT_NE(urls().audience(key, "p"), urls().audience(key, "q"));
  EXPECT_EQ(urls().audience(key, "tenant-secret-name").find("tenant"), std::string::npos);
}

// Reference level (D-SU-TOKEN): the reference's aud is
// base64url(HMAC-SHA256(key, "ssp2-segment-aud:" + partition)), so it is this
// value and changes with the key; §5.4 asks neither.
TEST_P(SignedUrl, SU_R2_REF_AudienceIsTheReferencesKeyedDerivation) {
  record_spec("§5.4", "SU-R2-REF");
  const UrlSigningKey key = signing_key();
  EXPECT_EQ(urls().audience(key, "p"), kGoldenAudience);
  UrlSigningKey other = signing_key();
  other.key[0] ^= 1;
  EXPECT_NE(urls().audience(other, "p"), urls().audience(key, "p"));
}

TEST_P(SignedUrl, SU_R3_TamperedOrForeignTokensAreForbidden) {
  record_spec("§5.4", "SU-R3");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string token = mint(kBytesId, kDigestP1, "p", kNow).token;
  const auto dot = token.find('.');
  ASSERT_NE(dot, std::string::npos) << token;

  std::string flipped_mac = token;
  flipped_mac[dot + 1] = flipped_mac[dot + 1] == 'A' ? 'B' : 'A';
  expect_refused(verify(flipped_mac, kBytesId, kNow), error_code::forbidden);

  // Claims rewritten to another digest under the old MAC: the payload part of
  // a token signed for the rewritten text, joined to the original MAC. The
  // text is the candidate's own payload, whatever its aud.
  const std::optional<std::string> minted_text = payload_text(token);
  ASSERT_TRUE(minted_text) << token;
  std::string text = *minted_text;
  const std::size_t digest_at = text.find(kDigestP1);
  ASSERT_NE(digest_at, std::string::npos) << text;
  text.replace(digest_at, kDigestP1.size(), kDigestP2);
  const std::string rewritten = urls().sign_payload(signing_key(), text);
  ASSERT_NE(rewritten.find('.'), std::string::npos) << rewritten;
  const std::string forged = rewritten.substr(0, rewritten.find('.')) + token.substr(dot);
  expect_refused(verify(forged, kBytesId, kNow), error_code::forbidden);

  UrlSigningKey other = signing_key();
  other.key[31] ^= 0x80;
  const std::string foreign = mint(kBytesId, kDigestP1, "p", kNow, other).token;
  expect_refused(verify(foreign, kBytesId, kNow), error_code::forbidden);
}

TEST_P(SignedUrl, SU_R4_WrongSegmentDigestOrAudienceIsForbidden) {
  record_spec("§5.4", "SU-R4");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string other = store().put(published_for(kP1), payload("other"), kNow).segment_id;

  const std::string for_bytes = mint(kBytesId, kDigestP1, "p", kNow).token;
  expect_refused(verify(for_bytes, other, kNow), error_code::forbidden);

  const std::string wrong_digest = mint(kBytesId, kDigestP2, "p", kNow).token;
  expect_refused(verify(wrong_digest, kBytesId, kNow), error_code::forbidden);

  // Minted for partition q, where these bytes were never published.
  const std::string wrong_audience = mint(kBytesId, kDigestP1, "q", kNow).token;
  expect_refused(verify(wrong_audience, kBytesId, kNow), error_code::forbidden);
}

// Reference level (D-TOKEN-REFUSAL-KINDS): each refusal names its kind, one
// situation per kind; SU-R3 … SU-R8 pin what a client sees of them.
TEST_P(SignedUrl, SU_KIND_REF_EachRefusalNamesItsKind) {
  record_spec("§5.4", "SU-KIND-REF");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string other = store().put(published_for(kP1), payload("other"), kNow).segment_id;
  const SignedSegmentUrl url = mint(kBytesId, kDigestP1, "p", kNow);
  UrlSigningKey foreign_key = signing_key();
  foreign_key.key[31] ^= 0x80;
  const std::string unknown = "sha256:" + std::string(64, '0');
  const struct {
    const char* situation;
    SignedUrlVerdict verdict;
    TokenRefusal kind;
  } cases[] = {
      {"not a token", verify("not a token", kBytesId, kNow), TokenRefusal::malformed},
      {"another key's MAC", verify(mint(kBytesId, kDigestP1, "p", kNow, foreign_key).token,
                                   kBytesId, kNow),
       TokenRefusal::bad_signature},
      {"past exp and the skew", verify(url.token, kBytesId, url.url_expires_at_ms + 60'000),
       TokenRefusal::expired},
      {"another segment", verify(url.token, other, kNow), TokenRefusal::wrong_segment},
      {"an unknown segment", verify(mint(unknown, kDigestP1, "p", kNow).token, unknown, kNow),
       TokenRefusal::unknown_segment},
      {"minted for partition q", verify(mint(kBytesId, kDigestP1, "q", kNow).token, kBytesId,
                                        kNow),
       TokenRefusal::wrong_audience},
      {"another scope digest", verify(mint(kBytesId, kDigestP2, "p", kNow).token, kBytesId, kNow),
       TokenRefusal::wrong_scope_digest},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(refusal_text(c.verdict), token_refusal_name(c.kind)) << c.situation;
  }
}

TEST_P(SignedUrl, SU_R5_ExpiryAllowsAtMostSixtySecondsOfSkew) {
  record_spec("§5.4", "SU-R5");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const SignedSegmentUrl url = mint(kBytesId, kDigestP1, "p", kNow);
  const std::int64_t exp_ms = url.url_expires_at_ms;
  EXPECT_TRUE(verify(url.token, kBytesId, exp_ms + 59'999).accepted());
  const auto late = verify(url.token, kBytesId, exp_ms + 60'000);
  ASSERT_NO_FATAL_FAILURE(expect_refused(late, error_code::segment_expired));
  EXPECT_TRUE(late.error->entry.retryable);

  const UrlSigningKey strict = signing_key(0);
  EXPECT_TRUE(verify(url.token, kBytesId, exp_ms - 1, strict).accepted());
  expect_refused(verify(url.token, kBytesId, exp_ms, strict), error_code::segment_expired);
}

TEST_P(SignedUrl, SU_R6_AnyCurrentEpochPublicationOfThePartitionMayCarrySd) {
  record_spec("§5.4", "SU-R6");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  store().put(published_for(kP2), Bytes{1, 2, 3}, kNow + 1);  // primary digest is now p2's
  ASSERT_EQ(require_found(store().get(kBytesId), "get(kBytesId)").record.metadata.scope_digest,
            kDigestP2);
  const std::string non_primary = mint(kBytesId, kDigestP1, "p", kNow + 2).token;
  const auto verdict = verify(non_primary, kBytesId, kNow + 2);
  ASSERT_TRUE(verdict.accepted()) << refusal_text(verdict);
  ASSERT_TRUE(verdict.record);
  EXPECT_EQ(verdict.record->metadata.scope_digest, kDigestP1);

  // After p rotates its epoch, the epoch-1 publications grant nothing.
  const CurrentEpochLookup rotated = [](const std::string&) {
    return std::optional<std::string>("epoch-2");
  };
  expect_refused(urls().verify(signing_key(), non_primary, kBytesId, store(), rotated, kNow + 2),
                 error_code::forbidden, TokenRefusal::wrong_audience);
  const CurrentEpochLookup unknown = [](const std::string&) {
    return std::optional<std::string>();
  };
  expect_refused(urls().verify(signing_key(), non_primary, kBytesId, store(), unknown, kNow + 2),
                 error_code::forbidden, TokenRefusal::wrong_audience);
}

TEST_P(SignedUrl, SU_R7_MalformedTokensAreRefusedNeverACrash) {
  record_spec("§5.4", "SU-R7");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  // No golden token here: the cases are built from the candidate's own
  // (the last one's literal MAC is the reference's, with its trailing bits
  // set; against another MAC it is just a wrong one).
  expect_malformed_tokens_refused(RequirementLevel::must);

  // Correctly signed payloads whose claims are not the §5.4 claims; the
  // table's last case has valid claims, so the others fail on their claims.
  expect_bad_claims_refused(RequirementLevel::must);
}

// Reference level: the cases of both tables marked "level": "reference",
// whose refusal is our choice (docs/decisions.md, "signed URL claims").
TEST_P(SignedUrl, SU_R7_REF_AnExtraClaimIsRefusedAsMalformed) {
  record_spec("§5.4", "SU-R7-REF");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  expect_malformed_tokens_refused(RequirementLevel::reference);
  expect_bad_claims_refused(RequirementLevel::reference);
}

TEST_P(SignedUrl, SU_R8_ValidTokenForAnUnknownSegmentIsNotFound) {
  record_spec("§5.4", "SU-R8");
  const std::string token = mint(kBytesId, kDigestP1, "p", kNow).token;
  expect_refused(verify(token, kBytesId, kNow), error_code::not_found,
                 TokenRefusal::unknown_segment);
}

TEST_P(SignedUrl, SU_R9_TokenExpiryAloneBoundsTheGrant) {
  record_spec("§5.4", "SU-R9");
  // Design-notes Q3, pinned: the publication expired (TTL 1 s) while the
  // token is still valid; the URL still serves the immutable bytes.
  SegmentStoreOptions short_ttl;
  short_ttl.ttl_ms = 1000;
  auto short_lived = open(short_ttl);
  short_lived->put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string token = mint(kBytesId, kDigestP1, "p", kNow).token;
  const auto verdict =
      urls().verify(signing_key(), token, kBytesId, *short_lived, current_epoch, kNow + 5000);
  ASSERT_TRUE(verdict.accepted()) << refusal_text(verdict);
  ASSERT_TRUE(verdict.record);
  ASSERT_EQ(verdict.record->publications.size(), 1u);
  EXPECT_LE(verdict.record->publications[0].expires_at_ms, kNow + 5000);  // not live
}

TEST_P(SignedUrl, SU_R10_MintAndSignerRefuseOutOfContractArguments) {
  record_spec("§5.4", "SU-R10");
  // §5.4's TTL bound (a SHOULD): a TTL past 15 minutes is refused, or mints
  // a URL that still expires within 15 minutes; either keeps the bound.
  try {
    const SignedSegmentUrl url =
        urls().mint(signing_key(), kBytesId, "d", "p", kNow, kMaxSignedUrlTtlMs + 1);
    EXPECT_LE(url.url_expires_at_ms, kNow + kMaxSignedUrlTtlMs) << "valid past 15 minutes";
  } catch (const InvalidArgument&) {
    // Refused: the bound holds.
  }
}

// Reference level (D-SU-ARGUMENTS): how the reference refuses arguments
// outside its contract; §5.4 bounds the TTL and the skew but asks no refusal.
TEST_P(SignedUrl, SU_R10_REF_OutOfContractArgumentsAreRefused) {
  record_spec("§5.4", "SU-R10-REF");
  EXPECT_THROW(urls().audience(UrlSigningKey{Bytes{}, kMaxSignedUrlSkewSeconds}, "p"),
               InvalidArgument);
  EXPECT_THROW(urls().audience(signing_key(61), "p"), InvalidArgument);
  EXPECT_THROW(urls().audience(signing_key(-1), "p"), InvalidArgument);
  EXPECT_THROW(mint(kBytesId, "d", "p", kNow, UrlSigningKey{Bytes{}, 60}), InvalidArgument);
  EXPECT_THROW(urls().mint(signing_key(), kBytesId, "d", "p", kNow, 0), InvalidArgument);
  EXPECT_THROW(urls().mint(signing_key(), kBytesId, "d", "p", kNow, kMaxSignedUrlTtlMs + 1),
               InvalidArgument);
  EXPECT_NO_THROW(urls().mint(signing_key(), kBytesId, "d", "p", kNow, kMaxSignedUrlTtlMs));
}

}  // namespace
}  // namespace ssp::harness
