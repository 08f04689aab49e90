#include "ssp/download/download_report.hpp"

#include "ssp/download/download_decision.hpp"
#include "ssp/errors/error_catalog.hpp"
#include "ssp/scopes/parse_scope_map.hpp"
#include "ssp/scopes/scope_digest.hpp"
#include "wire/segment_json.hpp"

namespace ssp {
namespace {

using Json = nlohmann::ordered_json;

ScopeMap parse_option(const std::string& option, const std::string& json_text) {
  try {
    return parse_scope_map(json_text);
  } catch (const InvalidScopeMap& invalid) {
    throw InvalidScopeMap(option + ": " + invalid.what());
  }
}

// Without a schema, serve every table the segment was published for and let
// each declare every requested key: only the scope checks remain.
ServedTables lenient_tables(SegmentStore& store, const AuthorizeCommand& command) {
  ServedTables served;
  const auto entry = store.get(command.segment_id);
  if (!entry) return served;
  std::set<std::string> requested_keys;
  try {
    for (const auto& [key, values] : parse_scope_map(command.scopes_json)) {
      requested_keys.insert(key);
    }
  } catch (const InvalidScopeMap&) {
    // The decision itself reports the bad header as invalid_request.
  }
  for (const auto& publication : entry->record.publications) {
    served.declared_variables[publication.metadata.table] = requested_keys;
  }
  return served;
}

}  // namespace

std::string download_decision_json(const SegmentDownloadOutcome& outcome) {
  Json decision{{"status", outcome.http_status},
                {"step", std::string(download_step_name(outcome.step))}};
  // The error's body is error_body's, and the scopes below are
  // canonical_scope_json's text read back: one rendering of each, no second
  // copy of their fields here.
  decision["error"] = outcome.error ? error_body(*outcome.error) : Json();
  Json headers = Json::object();
  for (const auto& header : outcome.headers) headers[header.name] = header.value;
  decision["headers"] = std::move(headers);
  decision["record"] = outcome.record ? wire::record_to_json(*outcome.record) : Json();
  decision["bytesLength"] = outcome.http_status == 200 ? Json(outcome.bytes.size()) : Json();
  const EffectiveScopes* effective = outcome.effective ? &*outcome.effective : nullptr;
  decision["effectiveScopes"] =
      effective ? Json::parse(canonical_scope_json(effective->scopes)) : Json();
  decision["scopeStatus"] =
      effective ? Json(effective->status == ScopeStatus::active ? "active" : "revoked") : Json();
  decision["revokedBecause"] = wire::json_string_or_null(
      effective && effective->status == ScopeStatus::revoked
          ? std::optional(effective->revoked_because)
          : std::nullopt);
  decision["scopeDigest"] = wire::json_string_or_null(outcome.effective_digest);
  Json in_context = Json::array();
  for (const auto& publication : outcome.in_context) {
    in_context.push_back(wire::publication_to_json(publication));
  }
  decision["inContext"] = std::move(in_context);
  return decision.dump();
}

std::string run_authorize_command(SegmentStore& store, const AuthorizeCommand& command) {
  FixedScopeResolver resolver(parse_option("--allowed", command.allowed_json));
  ServedTables served;
  if (command.tables_json) {
    for (auto& [table, variables] : parse_option("--tables", *command.tables_json)) {
      served.declared_variables[table] = {variables.begin(), variables.end()};
    }
  } else {
    served = lenient_tables(store, command);
  }
  SegmentDownloadRequest request;
  request.segment_id = command.segment_id;
  request.partition = command.partition;
  request.log_epoch = command.log_epoch;
  request.actor_id = "ssp-segments";
  request.scopes_header = command.scopes_json;
  request.if_none_match = command.if_none_match;
  request.now_ms = command.now_ms;
  return download_decision_json(authorize_segment_download(store, resolver, served, request));
}

}  // namespace ssp
