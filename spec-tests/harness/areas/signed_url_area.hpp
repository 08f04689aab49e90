// The candidate's native signed-URL tokens (SSP2 §5.4). Every call carries
// the host secret and the skew allowance, as the driver protocol does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ssp/download/signed_url_verdict.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp::harness {

struct UrlSigningKey {
  Bytes key;  // the host secret; empty is refused
  std::int64_t skew_seconds = kMaxSignedUrlSkewSeconds;  // 0..60, else refused
};

// Each method throws InvalidArgument when the key is empty or the skew is
// outside 0..60.
class SignedUrlArea {
 public:
  virtual ~SignedUrlArea() = default;

  // The aud claim of `partition`.
  virtual std::string audience(const UrlSigningKey& key, const std::string& partition) = 0;

  // A token for one grant. Throws InvalidArgument unless 0 < ttl_ms ≤ 15 min.
  virtual SignedSegmentUrl mint(const UrlSigningKey& key, const std::string& segment_id,
                                const std::string& scope_digest, const std::string& partition,
                                std::int64_t now_ms, std::int64_t ttl_ms) = 0;

  // Any payload text, signed: well-signed tokens with bad claims.
  virtual std::string sign_payload(const UrlSigningKey& key, std::string_view payload_json) = 0;

  // The verdict on `token` for a fetch of `segment_id` from `store` (opened
  // by this same candidate) at `now_ms`; `current_epoch` answers a
  // partition's current log epoch. Never throws on any token text.
  virtual SignedUrlVerdict verify(const UrlSigningKey& key, std::string_view token,
                                  const std::string& segment_id, SegmentStore& store,
                                  const CurrentEpochLookup& current_epoch,
                                  std::int64_t now_ms) = 0;
};

}  // namespace ssp::harness
