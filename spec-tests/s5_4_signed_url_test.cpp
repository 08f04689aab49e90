// SSP2 §5.4 native signed-URL tokens (`st`): mint, verify, and the D12 rule
// that any publication of the token's partition in its current epoch may carry
// `sd` (SU-R* in docs/requirements/download.md). Golden values were computed
// from the §5.4 formula with an independent HMAC-SHA256 (Python hmac).
#include <gmock/gmock.h>

#include "harness/download_fixtures.hpp"
#include "harness/require_found.hpp"
#include "ssp/base64url.hpp"
#include "ssp/errors.hpp"
#include "ssp/scope_digest.hpp"
#include "ssp/signed_url.hpp"

namespace ssp::harness {
namespace {

const std::string kBytesId =  // bytes 01 02 03
    "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81";
const ScopeMap& kP1 = kScopesP1;
const ScopeMap& kP2 = kScopesP2;
constexpr std::int64_t kTenMinutes = 10 * 60 * 1000;

Bytes test_key() {
  Bytes key;
  for (int i = 0; i < 32; ++i) key.push_back(static_cast<std::uint8_t>(i));
  return key;
}

// Partition p is in epoch-1 (base metadata); q in epoch-1 too; others unknown.
std::optional<std::string> current_epoch(const std::string& partition) {
  if (partition == "p" || partition == "q") return std::string("epoch-1");
  return std::nullopt;
}

class SignedUrl : public SegmentStoreTest {
 protected:
  SignedUrlVerdict verify(const std::string& token, const std::string& path_id, std::int64_t now,
                          const SegmentUrlSigner& with = SegmentUrlSigner(test_key())) {
    return with.verify(token, path_id, store(), current_epoch, now);
  }
  SegmentUrlSigner signer{test_key()};
};
SSP_ALL_BACKENDS(SignedUrl);

void expect_refused(const SignedUrlVerdict& verdict, TokenRefusal refusal, std::string_view code) {
  ASSERT_FALSE(verdict.accepted()) << "expected " << token_refusal_name(refusal);
  EXPECT_EQ(verdict.refusal, refusal) << token_refusal_name(*verdict.refusal);
  ASSERT_TRUE(verdict.error);
  EXPECT_EQ(verdict.error->code(), code);
  EXPECT_FALSE(verdict.record);
  EXPECT_TRUE(verdict.bytes.empty());
}

TEST_P(SignedUrl, SU_R1_MintedTokenHasTheSpecLayoutAndVerifies) {
  record_spec("§5.4", "SU-R1");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const SignedSegmentUrl url = signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes);
  EXPECT_EQ(url.token,
            "eyJ2IjoxLCJzZWciOiJzaGEyNTY6MDM5MDU4YzZmMmMwY2I0OTJjNTMzYjBhNGQxNGVmNzdjYzBmNzhhYmNj"
            "Y2VkNTI4N2Q4NGExYTIwMTFjZmI4MSIsInNkIjoiNDZjZjE4ZDZiYjJiNTdlYzk4MTE2MzM1Yzk4ODgxMGVk"
            "NDY0YTQ0N2JkNTc0Njk1YmMxNjVkYTc2MzE0MTRmNiIsImF1ZCI6IjRBNlF5UG1JbjRlU25YYU5kaFgyZGo0"
            "MWRyMkZnNWtuNGoyeVZfcVBZM28iLCJleHAiOjE3NTAwMDA2MDB9."
            "4fHIT4MW_jco1NcZy313d27yC2J3wjFIylVN-WCawYs");
  EXPECT_EQ(url.url_expires_at_ms, 1'750'000'600'000);  // exp is unix seconds

  const auto payload = base64url_decode(url.token.substr(0, url.token.find('.')));
  ASSERT_TRUE(payload);
  EXPECT_EQ(std::string(payload->begin(), payload->end()),
            R"({"v":1,"seg":")" + kBytesId + R"(","sd":")" + scope_digest(kP1) +
                R"(","aud":"4A6QyPmIn4eSnXaNdhX2dj41dr2Fg5kn4j2yV_qPY3o","exp":1750000600})");

  const auto verdict = verify(url.token, kBytesId, kNow + 1);
  ASSERT_TRUE(verdict.accepted()) << token_refusal_name(*verdict.refusal);
  EXPECT_EQ(verdict.bytes, (Bytes{1, 2, 3}));
  ASSERT_TRUE(verdict.record);
  EXPECT_EQ(verdict.record->scope_digests, std::vector<std::string>{scope_digest(kP1)});
  ASSERT_TRUE(verdict.claims);
  EXPECT_EQ(verdict.claims->exp, 1'750'000'600);
  // A TTL that is not a whole number of seconds rounds exp down, never up.
  EXPECT_EQ(signer.mint(kBytesId, "d", "p", kNow + 999, kTenMinutes).url_expires_at_ms,
            1'750'000'600'000);
}

TEST_P(SignedUrl, SU_R2_AudienceIsAStableKeyedDerivationOfThePartition) {
  record_spec("§5.4", "SU-R2");
  EXPECT_EQ(signer.audience("p"), "4A6QyPmIn4eSnXaNdhX2dj41dr2Fg5kn4j2yV_qPY3o");
  EXPECT_EQ(signer.audience("p"), SegmentUrlSigner(test_key()).audience("p"));
  EXPECT_NE(signer.audience("p"), signer.audience("q"));
  Bytes other_key = test_key();
  other_key[0] ^= 1;
  EXPECT_NE(SegmentUrlSigner(other_key).audience("p"), signer.audience("p"));
  EXPECT_EQ(signer.audience("tenant-secret-name").find("tenant"), std::string::npos);
}

TEST_P(SignedUrl, SU_R3_TamperedOrForeignTokensAreForbidden) {
  record_spec("§5.4", "SU-R3");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string token = signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes).token;
  const auto dot = token.find('.');

  std::string flipped_mac = token;
  flipped_mac[dot + 1] = flipped_mac[dot + 1] == 'A' ? 'B' : 'A';
  expect_refused(verify(flipped_mac, kBytesId, kNow), TokenRefusal::bad_signature,
                 error_code::forbidden);

  // Claims rewritten to another digest under the old MAC.
  const auto payload = base64url_decode(token.substr(0, dot));
  std::string text(payload->begin(), payload->end());
  text.replace(text.find(scope_digest(kP1)), 64, scope_digest(kP2));
  const std::string forged = base64url_encode(std::span(
                                 reinterpret_cast<const std::uint8_t*>(text.data()), text.size())) +
                             token.substr(dot);
  expect_refused(verify(forged, kBytesId, kNow), TokenRefusal::bad_signature,
                 error_code::forbidden);

  Bytes other_key = test_key();
  other_key[31] ^= 0x80;
  const std::string foreign =
      SegmentUrlSigner(other_key).mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes).token;
  expect_refused(verify(foreign, kBytesId, kNow), TokenRefusal::bad_signature,
                 error_code::forbidden);
}

TEST_P(SignedUrl, SU_R4_WrongSegmentDigestOrAudienceIsForbidden) {
  record_spec("§5.4", "SU-R4");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string other = store().put(published_for(kP1), payload("other"), kNow).segment_id;

  const std::string for_bytes =
      signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes).token;
  expect_refused(verify(for_bytes, other, kNow), TokenRefusal::wrong_segment,
                 error_code::forbidden);

  const std::string wrong_digest =
      signer.mint(kBytesId, scope_digest(kP2), "p", kNow, kTenMinutes).token;
  expect_refused(verify(wrong_digest, kBytesId, kNow), TokenRefusal::wrong_scope_digest,
                 error_code::forbidden);

  // Minted for partition q, where these bytes were never published.
  const std::string wrong_audience =
      signer.mint(kBytesId, scope_digest(kP1), "q", kNow, kTenMinutes).token;
  expect_refused(verify(wrong_audience, kBytesId, kNow), TokenRefusal::wrong_audience,
                 error_code::forbidden);
}

TEST_P(SignedUrl, SU_R5_ExpiryAllowsAtMostSixtySecondsOfSkew) {
  record_spec("§5.4", "SU-R5");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const SignedSegmentUrl url = signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes);
  const std::int64_t exp_ms = url.url_expires_at_ms;
  EXPECT_TRUE(verify(url.token, kBytesId, exp_ms + 59'999).accepted());
  const auto late = verify(url.token, kBytesId, exp_ms + 60'000);
  expect_refused(late, TokenRefusal::expired, error_code::segment_expired);
  EXPECT_TRUE(late.error->entry.retryable);

  const SegmentUrlSigner strict(test_key(), 0);
  EXPECT_TRUE(verify(url.token, kBytesId, exp_ms - 1, strict).accepted());
  expect_refused(verify(url.token, kBytesId, exp_ms, strict), TokenRefusal::expired,
                 error_code::segment_expired);
}

TEST_P(SignedUrl, SU_R6_AnyCurrentEpochPublicationOfThePartitionMayCarrySd) {
  record_spec("§5.4", "SU-R6");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  store().put(published_for(kP2), Bytes{1, 2, 3}, kNow + 1);  // primary digest is now p2's
  ASSERT_EQ(require_found(store().get(kBytesId), "get(kBytesId)").record.metadata.scope_digest,
            scope_digest(kP2));
  const std::string non_primary =
      signer.mint(kBytesId, scope_digest(kP1), "p", kNow + 2, kTenMinutes).token;
  const auto verdict = verify(non_primary, kBytesId, kNow + 2);
  ASSERT_TRUE(verdict.accepted()) << token_refusal_name(*verdict.refusal);
  ASSERT_TRUE(verdict.record);
  EXPECT_EQ(verdict.record->metadata.scope_digest, scope_digest(kP1));

  // After p rotates its epoch, the epoch-1 publications grant nothing.
  const CurrentEpochLookup rotated = [](const std::string&) {
    return std::optional<std::string>("epoch-2");
  };
  expect_refused(signer.verify(non_primary, kBytesId, store(), rotated, kNow + 2),
                 TokenRefusal::wrong_audience, error_code::forbidden);
  const CurrentEpochLookup unknown = [](const std::string&) {
    return std::optional<std::string>();
  };
  expect_refused(signer.verify(non_primary, kBytesId, store(), unknown, kNow + 2),
                 TokenRefusal::wrong_audience, error_code::forbidden);
}

TEST_P(SignedUrl, SU_R7_MalformedTokensAreRefusedNeverACrash) {
  record_spec("§5.4", "SU-R7");
  store().put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string good = signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes).token;
  const std::string body = good.substr(0, good.find('.'));
  const std::string mac = good.substr(good.find('.') + 1);
  for (const std::string& token : std::vector<std::string>{
           "", ".", "abc", "a.b.c", good + ".", "." + mac, body + ".", body + "=." + mac,
           body + "." + mac + "=", body + " ." + mac, "+/.+/", std::string("\0.\0", 3),
           body + "." + mac.substr(0, 20), body.substr(1) + "." + mac}) {
    SCOPED_TRACE(token);
    const auto verdict = verify(token, kBytesId, kNow);
    ASSERT_FALSE(verdict.accepted());
    EXPECT_TRUE(verdict.refusal == TokenRefusal::malformed ||
                verdict.refusal == TokenRefusal::bad_signature);
    ASSERT_TRUE(verdict.error);
    EXPECT_EQ(verdict.error->code(), error_code::forbidden);
  }
  // Correctly signed payloads whose claims are not the §5.4 claims.
  const std::string sd = scope_digest(kP1);
  const std::string aud = signer.audience("p");
  const std::string rest = R"(","sd":")" + sd + R"(","aud":")" + aud + "\"";
  for (const std::string& payload : std::vector<std::string>{
           "not json", "[]", "{}", R"({"v":2,"seg":")" + kBytesId + rest + R"(,"exp":1750000600})",
           R"({"v":"1","seg":")" + kBytesId + rest + R"(,"exp":1750000600})",
           R"({"v":1,"seg":")" + kBytesId + rest + "}",
           R"({"v":1,"seg":")" + kBytesId + rest + R"(,"exp":1750000600.5})",
           R"({"v":1,"seg":")" + kBytesId + rest + R"(,"exp":"1750000600"})",
           R"({"v":1,"seg":")" + kBytesId + rest + R"(,"exp":9007199254740992})",
           R"({"v":1,"seg":")" + kBytesId + rest + R"(,"exp":1750000600,"x":1})",
           R"({"v":1,"seg":7,"sd":")" + sd + R"(","aud":")" + aud + R"(","exp":1750000600})"}) {
    SCOPED_TRACE(payload);
    expect_refused(verify(signer.sign_payload(payload), kBytesId, kNow), TokenRefusal::malformed,
                   error_code::forbidden);
  }
  // The same layout with valid claims is accepted: the cases above fail on their claims.
  EXPECT_TRUE(verify(signer.sign_payload(R"({"v":1,"seg":")" + kBytesId + rest +
                                         R"(,"exp":1750000600})"),
                     kBytesId, kNow)
                  .accepted());
}

TEST_P(SignedUrl, SU_R8_ValidTokenForAnUnknownSegmentIsNotFound) {
  record_spec("§5.4", "SU-R8");
  const std::string token = signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes).token;
  expect_refused(verify(token, kBytesId, kNow), TokenRefusal::unknown_segment,
                 error_code::not_found);
}

TEST_P(SignedUrl, SU_R9_TokenExpiryAloneBoundsTheGrant) {
  record_spec("§5.4", "SU-R9");
  // Design-notes Q3, pinned: the publication expired (TTL 1 s) while the
  // token is still valid; the URL still serves the immutable bytes.
  SegmentStoreOptions short_ttl;
  short_ttl.ttl_ms = 1000;
  auto short_lived = open(short_ttl);
  short_lived->put(published_for(kP1), Bytes{1, 2, 3}, kNow);
  const std::string token = signer.mint(kBytesId, scope_digest(kP1), "p", kNow, kTenMinutes).token;
  const auto verdict = signer.verify(token, kBytesId, *short_lived, current_epoch, kNow + 5000);
  ASSERT_TRUE(verdict.accepted()) << token_refusal_name(*verdict.refusal);
  ASSERT_TRUE(verdict.record);
  EXPECT_FALSE(verdict.record->publications.at(0).is_live(kNow + 5000));
}

TEST_P(SignedUrl, SU_R10_MintAndSignerRefuseOutOfContractArguments) {
  record_spec("§5.4", "SU-R10");
  EXPECT_THROW(SegmentUrlSigner(Bytes{}), InvalidArgument);
  EXPECT_THROW(SegmentUrlSigner(test_key(), 61), InvalidArgument);
  EXPECT_THROW(SegmentUrlSigner(test_key(), -1), InvalidArgument);
  EXPECT_THROW(signer.mint(kBytesId, "d", "p", kNow, 0), InvalidArgument);
  EXPECT_THROW(signer.mint(kBytesId, "d", "p", kNow, kMaxSignedUrlTtlMs + 1), InvalidArgument);
  EXPECT_NO_THROW(signer.mint(kBytesId, "d", "p", kNow, kMaxSignedUrlTtlMs));
}

TEST(Base64url, SU_R11_EncodingIsUnpaddedAndDecodingAcceptsOnlyTheCanonicalForm) {
  record_spec("§5.4", "SU-R11");
  const auto encode = [](std::string_view text) {
    return base64url_encode(
        std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  };
  EXPECT_EQ(encode(""), "");
  EXPECT_EQ(encode("f"), "Zg");
  EXPECT_EQ(encode("fo"), "Zm8");
  EXPECT_EQ(encode("foo"), "Zm9v");
  EXPECT_EQ(base64url_encode(Bytes{0xfb, 0xff}), "-_8");
  EXPECT_EQ(base64url_decode("-_8"), (Bytes{0xfb, 0xff}));
  EXPECT_EQ(base64url_decode("Zm9v"), (Bytes{'f', 'o', 'o'}));
  EXPECT_EQ(base64url_decode(""), Bytes{});
  for (const char* bad : {"Zg==", "Zh", "Z", "+/8", "Zm9v\n", "Zm 9v", "Zm9v="}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(base64url_decode(bad));
  }
}

}  // namespace
}  // namespace ssp::harness
