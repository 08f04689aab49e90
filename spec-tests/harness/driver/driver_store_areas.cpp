// The areas that read a store (download, signed_url) over a driver: each call
// goes to the process of the store it names, and the driver asks the test's
// resolver or epoch lookup back through callbacks.
#include "harness/catalog/spec_error_table.hpp"
#include "harness/driver/driver_areas.hpp"
#include "harness/driver/driver_handle.hpp"
#include "harness/driver/driver_segment_store.hpp"
#include "harness/errors/driver_error.hpp"
#include "ssp/encoding/base64.hpp"
#include "ssp/errors/errors.hpp"
#include "wire/segment_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Fields;
using wire::Json;

constexpr DownloadStep kDownloadSteps[] = {
    DownloadStep::served,           DownloadStep::not_modified,
    DownloadStep::unknown_segment,  DownloadStep::not_in_context,
    DownloadStep::invalid_scopes_header, DownloadStep::scopes_not_held,
    DownloadStep::scope_digest_mismatch, DownloadStep::expired,
    DownloadStep::table_not_served, DownloadStep::undeclared_scope_key};

constexpr TokenRefusal kTokenRefusals[] = {
    TokenRefusal::malformed,      TokenRefusal::bad_signature,  TokenRefusal::expired,
    TokenRefusal::wrong_segment,  TokenRefusal::unknown_segment, TokenRefusal::wrong_audience,
    TokenRefusal::wrong_scope_digest};

// The enumerator of `values` whose name (by `name_of`) is the text of `field`.
template <class Enum, std::size_t N, class NameOf>
Enum enumerator_at(const Fields& f, std::string_view field, const Enum (&values)[N],
                   NameOf name_of) {
  const std::string text = f.text(field);
  for (const Enum value : values) {
    if (name_of(value) == text) return value;
  }
  throw wire::WireError(f.path_of(field) + ": \"" + text + "\" is not a name the protocol knows");
}

// A §10.1 body. Its code must be a §10.2 code, and its category, retryable
// flag and recommended action that code's in SPEC's table: the catalog is closed.
ProtocolError protocol_error_from_body(const Json& value, const std::string& path) {
  const Fields body(value, path);
  const std::string code = body.text("code");
  const ErrorCatalogEntry* entry = spec_error_entry(code);
  if (entry == nullptr) {
    throw wire::WireError(body.path_of("code") + ": \"" + code + "\" is not a §10.2 code");
  }
  const ProtocolError error{*entry, body.text("message")};
  const auto expect = [&](std::string_view field, const Json& answered, const Json& catalog) {
    if (answered != catalog) {
      throw wire::WireError(body.path_of(field) + ": " + answered.dump() + ", but §10.2 gives " +
                            catalog.dump() + " for " + code);
    }
  };
  expect("category", body.at("category"), std::string(error.entry.category));
  expect("retryable", body.at("retryable"), error.entry.retryable);
  expect("recommendedAction", body.at("recommendedAction"),
         std::string(error.entry.recommended_action));
  return error;
}

std::optional<ProtocolError> nullable_error(const Fields& f, std::string_view field) {
  const Json& value = f.at(field);
  if (value.is_null()) return std::nullopt;
  return protocol_error_from_body(value, f.path_of(field));
}

std::optional<SegmentRecord> nullable_record(const Fields& f, std::string_view field) {
  const Json& value = f.at(field);
  if (value.is_null()) return std::nullopt;
  return wire::record_from_json(value, f.path_of(field));
}

DriverHandle& handle_of(SegmentStore& store, const std::string& method) {
  DriverHandle* handle = driver_handle_of(store);
  if (handle == nullptr) {
    throw DriverError(method, "the test passed a store this driver did not open");
  }
  return *handle;
}

// The "effectiveScopes", "scopeStatus" and "revokedBecause" fields: all null
// before the decision computed effective scopes. A revocation may come
// without effective scopes (null): none were computed.
std::optional<EffectiveScopes> effective_scopes(const Fields& r) {
  if (r.at("scopeStatus").is_null()) return std::nullopt;
  EffectiveScopes effective;
  effective.status = wire::scope_status_at(r, "scopeStatus");
  if (!r.at("effectiveScopes").is_null()) {
    effective.scopes =
        wire::scope_map_from_json(r.at("effectiveScopes"), r.path_of("effectiveScopes"));
  }
  effective.revoked_because = r.nullable_text("revokedBecause").value_or("");
  return effective;
}

SegmentDownloadOutcome outcome_from_answer(const Fields& r) {
  SegmentDownloadOutcome outcome;
  outcome.http_status = static_cast<int>(r.integer("status"));
  outcome.step = enumerator_at(r, "step", kDownloadSteps, download_step_name);
  outcome.error = nullable_error(r, "error");
  const Fields headers = r.object("headers");
  for (const auto& [name, value] : r.at("headers").items()) {
    outcome.headers.push_back({name, headers.text(name)});
  }
  outcome.record = nullable_record(r, "record");
  if (!r.at("bytes").is_null()) outcome.bytes = r.bytes("bytes");
  const Json& in_context = r.array("inContext");
  for (std::size_t i = 0; i < in_context.size(); ++i) {
    outcome.in_context.push_back(wire::publication_from_json(
        in_context[i], r.path_of("inContext") + "[" + std::to_string(i) + "]"));
  }
  outcome.effective = effective_scopes(r);
  outcome.effective_digest = r.nullable_text("scopeDigest");
  return outcome;
}

class DriverDownloadArea final : public DownloadArea {
 public:
  SegmentDownloadOutcome authorize(SegmentStore& store, ScopeResolver& resolver,
                                   const ServedTables& served,
                                   const SegmentDownloadRequest& request) override {
    const std::string method = "download.authorize";
    Json served_json = Json::object();
    for (const auto& [table, variables] : served.declared_variables) {
      served_json[table] = Json(std::vector<std::string>(variables.begin(), variables.end()));
    }
    const Json request_json = {{"segmentId", request.segment_id},
                               {"partition", request.partition},
                               {"logEpoch", request.log_epoch},
                               {"actorId", request.actor_id},
                               {"scopesHeader", request.scopes_header},
                               {"ifNoneMatch", request.if_none_match
                                                   ? Json(*request.if_none_match)
                                                   : Json()},
                               {"nowMs", request.now_ms}};
    int resolutions = 0;
    const auto on_callback = [&](const std::string& name, const Fields& params) -> Json {
      if (name != "resolve_scopes") {
        throw DriverError(method, "protocol violation: a " + name + " callback during a download");
      }
      if (++resolutions > 1) {
        throw DriverError(method, "protocol violation: resolve_scopes asked twice in one download");
      }
      const std::optional<ScopeMap> allowed = resolver.resolve(params.text("actorId"));
      if (!allowed) return {{"outage", true}};
      return {{"allowed", wire::scope_map_to_json(*allowed)}};
    };
    const Json result = handle_of(store, method)
                            .call_method(method, {{"served", std::move(served_json)},
                                                  {"request", request_json}},
                                         on_callback);
    return decode_answer(method, [&] { return outcome_from_answer(Fields(result, "result")); });
  }
};

Json key_params(const UrlSigningKey& key) {
  return {{"key", base64_encode(key.key)}, {"skewSeconds", key.skew_seconds}};
}

std::optional<SignedUrlClaims> nullable_claims(const Fields& r) {
  if (r.at("claims").is_null()) return std::nullopt;
  const Fields c = r.object("claims");
  return SignedUrlClaims{c.integer("v"), c.text("seg"), c.text("sd"), c.text("aud"),
                         c.integer("exp")};
}

SignedUrlVerdict verdict_from_answer(const Fields& r) {
  SignedUrlVerdict verdict;
  if (!r.at("refusal").is_null()) {
    verdict.refusal = enumerator_at(r, "refusal", kTokenRefusals, token_refusal_name);
  }
  if (r.boolean("accepted") == verdict.refusal.has_value()) {
    throw wire::WireError(r.path_of("accepted") + ": disagrees with result.refusal");
  }
  verdict.error = nullable_error(r, "error");
  verdict.claims = nullable_claims(r);
  verdict.record = nullable_record(r, "record");
  if (!r.at("bytes").is_null()) verdict.bytes = r.bytes("bytes");
  return verdict;
}

class DriverSignedUrlArea final : public SignedUrlArea {
 public:
  explicit DriverSignedUrlArea(DriverProcess& session) : session_(session) {}

  std::string audience(const UrlSigningKey& key, const std::string& partition) override {
    Json params = key_params(key);
    params["partition"] = partition;
    return ask("signed_url.audience", std::move(params), "audience");
  }

  SignedSegmentUrl mint(const UrlSigningKey& key, const std::string& segment_id,
                        const std::string& scope_digest, const std::string& partition,
                        std::int64_t now_ms, std::int64_t ttl_ms) override {
    const std::string method = "signed_url.mint";
    Json params = key_params(key);
    params.update({{"segmentId", segment_id}, {"scopeDigest", scope_digest},
                   {"partition", partition}, {"nowMs", now_ms}, {"ttlMs", ttl_ms}});
    const Json result = session_.call(method, std::move(params));
    return decode_answer(method, [&] {
      const Fields r(result, "result");
      return SignedSegmentUrl{r.text("token"), r.integer("urlExpiresAtMs")};
    });
  }

  std::string sign_payload(const UrlSigningKey& key, std::string_view payload_json) override {
    Json params = key_params(key);
    params["payload"] = std::string(payload_json);
    return ask("signed_url.sign_payload", std::move(params), "token");
  }

  SignedUrlVerdict verify(const UrlSigningKey& key, std::string_view token,
                          const std::string& segment_id, SegmentStore& store,
                          const CurrentEpochLookup& current_epoch, std::int64_t now_ms) override {
    const std::string method = "signed_url.verify";
    Json params = key_params(key);
    params.update({{"token", std::string(token)}, {"segmentId", segment_id}, {"nowMs", now_ms}});
    const auto on_callback = [&](const std::string& name, const Fields& callback) -> Json {
      if (name != "current_epoch") {
        throw DriverError(method, "protocol violation: a " + name + " callback during verify");
      }
      const std::optional<std::string> epoch = current_epoch(callback.text("partition"));
      return {{"logEpoch", epoch ? Json(*epoch) : Json()}};
    };
    const Json result = handle_of(store, method).call_method(method, std::move(params), on_callback);
    return decode_answer(method, [&] { return verdict_from_answer(Fields(result, "result")); });
  }

 private:
  // `method` on the session; the answer's text field `field`.
  std::string ask(const std::string& method, Json params, std::string_view field) {
    const Json result = session_.call(method, std::move(params));
    return decode_answer(method, [&] { return Fields(result, "result").text(field); });
  }

  DriverProcess& session_;
};

}  // namespace

std::unique_ptr<DownloadArea> make_driver_download_area() {
  return std::make_unique<DriverDownloadArea>();
}
std::unique_ptr<SignedUrlArea> make_driver_signed_url_area(DriverProcess& session) {
  return std::make_unique<DriverSignedUrlArea>(session);
}

}  // namespace ssp::harness
