// download.authorize (docs/driver-protocol.md, "download"): the §5.5 download
// decision, with the harness as the host's scope resolver.
#include "methods.hpp"
#include "ssp/download/download_report.hpp"
#include "ssp/download/segment_download.hpp"
#include "ssp/encoding/base64.hpp"
#include "ssp/download/download_decision.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

// Asks the harness (resolve_scopes); its error answer is the resolver
// throwing, which the decision treats as revocation.
class HarnessResolver final : public ScopeResolver {
 public:
  std::optional<ScopeMap> resolve(const std::string& actor_id) override {
    const Json answer = current_call().callback("resolve_scopes", {{"actorId", actor_id}});
    const Fields f(answer, "resolve_scopes");
    if (f.has("outage") && f.boolean("outage")) return std::nullopt;
    return wire::scope_map_from_json(f.at("allowed"), f.path_of("allowed"));
  }
};

ServedTables served_of(const Fields& params) {
  ServedTables served;
  for (const auto& [table, variables] :
       wire::scope_map_from_json(params.at("served"), params.path_of("served"))) {
    served.declared_variables[table] = {variables.begin(), variables.end()};
  }
  return served;
}

SegmentDownloadRequest request_of(const Fields& r) {
  SegmentDownloadRequest request;
  request.segment_id = r.text("segmentId");
  request.partition = r.text("partition");
  request.log_epoch = r.text("logEpoch");
  request.actor_id = r.text("actorId");
  request.scopes_header = r.text("scopesHeader");
  request.if_none_match = r.nullable_text("ifNoneMatch");
  request.now_ms = r.integer("nowMs");
  return request;
}

Json download_authorize(const Fields& params) {
  const auto store = segment_stores().get(params.integer("store"));
  HarnessResolver resolver;
  const SegmentDownloadOutcome outcome = authorize_segment_download(
      *store, resolver, served_of(params), request_of(params.object("request")));
  Json result = Json::parse(download_decision_json(outcome));
  result["bytes"] = outcome.http_status == 200 ? Json(base64_encode(outcome.bytes)) : Json();
  return result;
}

}  // namespace

void add_download_methods(MethodTable& table) { table["download.authorize"] = download_authorize; }

}  // namespace ssp::driver
