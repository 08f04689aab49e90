// Native signed-URL tokens for segments (SSP2 §5.4): the `st` query parameter
// that makes a URL the entire grant for one segment, one scope digest and one
// partition, until `exp`. Minted inside the pull right after scope
// resolution; verified by the host that serves the bytes, without host auth.
//
//   st = base64url(payloadJson) "." base64url(HMAC-SHA256(key, payloadJson))
//   payloadJson = {"v":1,"seg":"<segmentId>","sd":"<scopeDigest>",
//                  "aud":"<audience(partition)>","exp":<unix seconds>}
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ssp/errors/error_catalog.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp {

// §5.4: verification allows at most 60 s of clock skew past `exp`.
inline constexpr std::int64_t kMaxSignedUrlSkewSeconds = 60;
// §5.4 recommends a TTL of at most 15 minutes; mint refuses longer ones.
inline constexpr std::int64_t kMaxSignedUrlTtlMs = 15 * 60 * 1000;

// The claims of a token, field for field.
struct SignedUrlClaims {
  std::int64_t v = 1;
  std::string seg;  // segment id
  std::string sd;   // scope digest the URL was issued for
  std::string aud;  // SegmentUrlSigner::audience(partition)
  std::int64_t exp = 0;  // unix SECONDS (the one non-millisecond time of SSP2)

  friend bool operator==(const SignedUrlClaims&, const SignedUrlClaims&) = default;
};

// What mint hands to the SEGMENT_REF descriptor.
struct SignedSegmentUrl {
  std::string token;                  // the `st` value
  std::int64_t url_expires_at_ms = 0; // exp * 1000: the client never fetches at or after it
};

// The current log epoch of a partition (§2.1), or nothing for an unknown one.
using CurrentEpochLookup = std::function<std::optional<std::string>(const std::string& partition)>;

// Why a token was refused, checked in this order.
enum class TokenRefusal {
  malformed,           // sync.forbidden: not two canonical base64url parts, or bad claims
  bad_signature,       // sync.forbidden: the MAC does not verify (tampered or foreign key)
  expired,             // sync.segment_expired: now ≥ exp + skew (re-pull mints a fresh URL)
  wrong_segment,       // sync.forbidden: seg ≠ the segment the URL path names
  unknown_segment,     // sync.not_found: the store has no such segment
  wrong_audience,      // sync.forbidden: no publication of a partition with this aud in
                       //   that partition's current epoch
  wrong_scope_digest,  // sync.forbidden: none of those publications carries sd
};
std::string_view token_refusal_name(TokenRefusal refusal);

struct SignedUrlVerdict {
  std::optional<TokenRefusal> refusal;  // nothing: accepted
  std::optional<ProtocolError> error;   // set iff refused
  std::optional<SignedUrlClaims> claims;  // once the MAC verified and the claims parsed
  // Accepted: the record narrowed to the newest matching publication, and the bytes.
  std::optional<SegmentRecord> record;
  Bytes bytes;

  bool accepted() const { return !refusal.has_value(); }
};

class SegmentUrlSigner {
 public:
  // `key`: the host's secret (non-empty; 32 random bytes recommended).
  // `skew_seconds`: the allowance past exp, 0..60. Throws InvalidArgument.
  explicit SegmentUrlSigner(Bytes key, std::int64_t skew_seconds = kMaxSignedUrlSkewSeconds);

  // The aud claim of `partition`: base64url(HMAC-SHA256(key, "ssp2-segment-aud:" +
  // partition)). Stable per partition, and a client cannot recover the
  // partition id from it. The prefix keeps it apart from token MACs, whose
  // input always starts with '{'.
  std::string audience(const std::string& partition) const;

  // A token for one grant, expiring at floor((now_ms + ttl_ms) / 1000) s.
  // Throws InvalidArgument unless 0 < ttl_ms ≤ kMaxSignedUrlTtlMs.
  SignedSegmentUrl mint(const std::string& segment_id, const std::string& scope_digest,
                        const std::string& partition, std::int64_t now_ms,
                        std::int64_t ttl_ms) const;

  // Signs arbitrary payload text, so tests can build well-signed tokens with
  // bad claims. Production uses mint.
  std::string sign_payload(std::string_view payload_json) const;

  // Verifies `token` for a fetch of `requested_segment_id` at `now_ms`: MAC
  // (constant time), claims, exp with the skew allowance, seg, then the store:
  // sd is accepted iff some publication whose partition has audience `aud`
  // and whose epoch is that partition's current one carries it (DECISION D12;
  // any such publication, not only the record's primary digest). The
  // publication's own expiry is not checked: exp bounds the grant (Q3).
  // Never throws on any token text; throws only what the store throws.
  SignedUrlVerdict verify(std::string_view token, const std::string& requested_segment_id,
                          SegmentStore& store, const CurrentEpochLookup& current_epoch,
                          std::int64_t now_ms) const;

 private:
  Bytes mac(std::string_view message) const;

  Bytes key_;
  std::int64_t skew_seconds_;
};

}  // namespace ssp
