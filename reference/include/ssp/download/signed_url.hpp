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
#include <string>
#include <string_view>

#include "ssp/download/signed_url_verdict.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp {

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
