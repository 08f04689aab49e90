// signed_url.* (docs/driver-protocol.md, "signed_url"): §5.4 tokens, with the
// harness answering which log epoch is current for a partition.
#include "methods.hpp"
#include "ssp/download/signed_url.hpp"
#include "ssp/encoding/base64.hpp"
#include "ssp/errors/error_catalog.hpp"
#include "wire/segment_json.hpp"

namespace ssp::driver {
namespace {

SegmentUrlSigner signer_of(const Fields& params) {
  return SegmentUrlSigner(params.bytes("key"), params.integer("skewSeconds"));
}

Json signed_url_audience(const Fields& params) {
  return Json{{"audience", signer_of(params).audience(params.text("partition"))}};
}

Json signed_url_mint(const Fields& params) {
  const SignedSegmentUrl url = signer_of(params).mint(
      params.text("segmentId"), params.text("scopeDigest"), params.text("partition"),
      params.integer("nowMs"), params.integer("ttlMs"));
  return Json{{"token", url.token}, {"urlExpiresAtMs", url.url_expires_at_ms}};
}

Json signed_url_sign_payload(const Fields& params) {
  return Json{{"token", signer_of(params).sign_payload(params.text("payload"))}};
}

std::optional<std::string> harness_epoch(const std::string& partition) {
  const Json answer = current_call().callback("current_epoch", {{"partition", partition}});
  return Fields(answer, "current_epoch").nullable_text("logEpoch");
}

Json signed_url_verify(const Fields& params) {
  const auto store = segment_stores().get(params.integer("store"));
  const SignedUrlVerdict verdict =
      signer_of(params).verify(params.text("token"), params.text("segmentId"), *store,
                               harness_epoch, params.integer("nowMs"));
  Json claims;
  if (verdict.claims) {
    const SignedUrlClaims& c = *verdict.claims;
    claims = Json{{"v", c.v}, {"seg", c.seg}, {"sd", c.sd}, {"aud", c.aud}, {"exp", c.exp}};
  }
  return Json{
      {"accepted", verdict.accepted()},
      {"refusal", verdict.refusal ? Json(std::string(token_refusal_name(*verdict.refusal)))
                                  : Json()},
      {"error", verdict.error ? error_body(*verdict.error) : Json()},
      {"claims", std::move(claims)},
      {"record", verdict.record ? Json(wire::record_to_json(*verdict.record)) : Json()},
      {"bytes", verdict.accepted() ? Json(base64_encode(verdict.bytes)) : Json()}};
}

}  // namespace

void add_signed_url_methods(MethodTable& table) {
  table["signed_url.audience"] = signed_url_audience;
  table["signed_url.mint"] = signed_url_mint;
  table["signed_url.sign_payload"] = signed_url_sign_payload;
  table["signed_url.verify"] = signed_url_verify;
}

}  // namespace ssp::driver
