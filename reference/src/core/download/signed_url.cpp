#include "ssp/download/signed_url.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <nlohmann/json.hpp>

#include "ssp/encoding/base64url.hpp"
#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_safe_integer.hpp"
#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/error_catalog.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/segments/publication_selection.hpp"
#include "ssp/segments/segment_validation.hpp"

namespace ssp {
namespace {

constexpr std::string_view kAudiencePrefix = "ssp2-segment-aud:";

std::span<const std::uint8_t> as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::string payload_json(const SignedUrlClaims& claims) {
  std::string out = "{\"v\":";
  append_json_integer(out, claims.v);
  out += ",\"seg\":";
  append_json_string(out, claims.seg);
  out += ",\"sd\":";
  append_json_string(out, claims.sd);
  out += ",\"aud\":";
  append_json_string(out, claims.aud);
  out += ",\"exp\":";
  append_json_integer(out, claims.exp);
  out.push_back('}');
  return out;
}

// The claims of a MAC-verified payload: exactly v (= 1), seg, sd, aud, exp.
std::optional<SignedUrlClaims> parse_claims(const Bytes& payload) {
  nlohmann::json json;
  try {
    json = parse_json_input<nlohmann::json>(
        std::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()));
  } catch (const JsonSyntaxError&) {
    return std::nullopt;
  }
  if (!json.is_object() || json.size() != 5) return std::nullopt;
  for (const char* name : {"v", "seg", "sd", "aud", "exp"}) {
    if (!json.contains(name)) return std::nullopt;
  }
  const auto v = json_safe_integer(json["v"]);
  const auto exp = json_safe_integer(json["exp"]);
  if (!v || *v != 1 || !exp) return std::nullopt;
  if (!json["seg"].is_string() || !json["sd"].is_string() || !json["aud"].is_string()) {
    return std::nullopt;
  }
  return SignedUrlClaims{*v, json["seg"].get<std::string>(), json["sd"].get<std::string>(),
                         json["aud"].get<std::string>(), *exp};
}

SignedUrlVerdict refuse(SignedUrlVerdict verdict, TokenRefusal refusal) {
  static constexpr std::string_view kCodes[] = {
      error_code::forbidden,  // malformed
      error_code::forbidden,  // bad_signature
      error_code::segment_expired,
      error_code::forbidden,  // wrong_segment
      error_code::not_found,  // unknown_segment
      error_code::forbidden,  // wrong_audience
      error_code::forbidden,  // wrong_scope_digest
  };
  verdict.refusal = refusal;
  verdict.error = protocol_error(kCodes[static_cast<int>(refusal)],
                                 "signed URL refused (§5.4): " +
                                     std::string(token_refusal_name(refusal)));
  return verdict;
}

}  // namespace

SegmentUrlSigner::SegmentUrlSigner(Bytes key, std::int64_t skew_seconds)
    : key_(std::move(key)), skew_seconds_(skew_seconds) {
  if (key_.empty()) throw InvalidArgument("SegmentUrlSigner: the signing key is empty");
  if (skew_seconds_ < 0 || skew_seconds_ > kMaxSignedUrlSkewSeconds) {
    throw InvalidArgument("SegmentUrlSigner: skew_seconds " + std::to_string(skew_seconds_) +
                          " is outside 0..60 (§5.4)");
  }
}

Bytes SegmentUrlSigner::mac(std::string_view message) const {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  const auto bytes = as_bytes(message);
  if (HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()), bytes.data(), bytes.size(),
           out.data(), &length) == nullptr) {
    throw std::runtime_error("SegmentUrlSigner: OpenSSL HMAC failed");
  }
  out.resize(length);
  return out;
}

std::string SegmentUrlSigner::audience(const std::string& partition) const {
  return base64url_encode(mac(std::string(kAudiencePrefix) + partition));
}

std::string SegmentUrlSigner::sign_payload(std::string_view payload) const {
  return base64url_encode(as_bytes(payload)) + "." + base64url_encode(mac(payload));
}

SignedSegmentUrl SegmentUrlSigner::mint(const std::string& segment_id,
                                        const std::string& scope_digest,
                                        const std::string& partition, std::int64_t now_ms,
                                        std::int64_t ttl_ms) const {
  validate_now(now_ms);
  if (ttl_ms <= 0 || ttl_ms > kMaxSignedUrlTtlMs) {
    throw InvalidArgument("SegmentUrlSigner::mint: ttl_ms " + std::to_string(ttl_ms) +
                          " is outside (0, 15 min] (§5.4)");
  }
  // Rounding down keeps the URL's advertised expiry within the token's own.
  const SignedUrlClaims claims{1, segment_id, scope_digest, audience(partition),
                               (now_ms + ttl_ms) / 1000};
  return SignedSegmentUrl{sign_payload(payload_json(claims)), claims.exp * 1000};
}

SignedUrlVerdict SegmentUrlSigner::verify(std::string_view token,
                                          const std::string& requested_segment_id,
                                          SegmentStore& store,
                                          const CurrentEpochLookup& current_epoch,
                                          std::int64_t now_ms) const {
  SignedUrlVerdict verdict;
  const auto dot = token.find('.');
  if (dot == std::string_view::npos) return refuse(std::move(verdict), TokenRefusal::malformed);
  const auto payload = base64url_decode(token.substr(0, dot));
  const auto signature = base64url_decode(token.substr(dot + 1));
  if (!payload || !signature) return refuse(std::move(verdict), TokenRefusal::malformed);

  // Nothing in the payload is trusted before its MAC verifies.
  const std::string payload_text(payload->begin(), payload->end());
  const Bytes expected = mac(payload_text);
  if (signature->size() != expected.size() ||
      CRYPTO_memcmp(signature->data(), expected.data(), expected.size()) != 0) {
    return refuse(std::move(verdict), TokenRefusal::bad_signature);
  }
  verdict.claims = parse_claims(*payload);
  if (!verdict.claims) return refuse(std::move(verdict), TokenRefusal::malformed);
  const SignedUrlClaims& claims = *verdict.claims;

  // exp is a safe integer, so (exp + skew) * 1000 cannot overflow.
  if (now_ms >= (claims.exp + skew_seconds_) * 1000) {
    return refuse(std::move(verdict), TokenRefusal::expired);
  }
  if (claims.seg != requested_segment_id) {
    return refuse(std::move(verdict), TokenRefusal::wrong_segment);
  }
  auto entry = store.get(claims.seg);
  if (!entry) return refuse(std::move(verdict), TokenRefusal::unknown_segment);

  // D12: any publication of the audience's partition in its current epoch.
  const SegmentPublication* in_audience = nullptr;
  const SegmentPublication* granted = nullptr;
  for (const auto& publication : entry->record.publications) {
    const SegmentMetadata& m = publication.metadata;
    if (audience(m.partition) != claims.aud) continue;
    const auto epoch = current_epoch(m.partition);
    if (!epoch || *epoch != m.log_epoch) continue;
    in_audience = &publication;
    if (m.scope_digest == claims.sd) granted = &publication;  // the newest wins
  }
  if (!in_audience) return refuse(std::move(verdict), TokenRefusal::wrong_audience);
  if (!granted) return refuse(std::move(verdict), TokenRefusal::wrong_scope_digest);
  verdict.record = publication_record(entry->record, *granted);
  verdict.bytes = std::move(entry->bytes);
  return verdict;
}

}  // namespace ssp
