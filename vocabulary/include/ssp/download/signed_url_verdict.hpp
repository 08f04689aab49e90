// What a native signed-URL token (SSP2 §5.4) carries and what its verification
// answers: the claims, a minted URL, the refusals and the verdict. The signer
// that mints and verifies is the reference's (ssp/download/signed_url.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ssp/errors/protocol_error.hpp"
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

}  // namespace ssp
