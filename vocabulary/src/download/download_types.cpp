// The download vocabulary's own functions: lookups and the names of steps and refusals.
#include "ssp/download/segment_download.hpp"
#include "ssp/download/signed_url_verdict.hpp"

namespace ssp {

bool ServedTables::serves(const std::string& table) const {
  return declared_variables.contains(table);
}

bool ServedTables::declares(const std::string& table, const std::string& variable) const {
  const auto found = declared_variables.find(table);
  return found != declared_variables.end() && found->second.contains(variable);
}

std::string_view download_step_name(DownloadStep step) {
  switch (step) {
    case DownloadStep::served: return "served";
    case DownloadStep::not_modified: return "not_modified";
    case DownloadStep::unknown_segment: return "unknown_segment";
    case DownloadStep::not_in_context: return "not_in_context";
    case DownloadStep::invalid_scopes_header: return "invalid_scopes_header";
    case DownloadStep::scopes_not_held: return "scopes_not_held";
    case DownloadStep::scope_digest_mismatch: return "scope_digest_mismatch";
    case DownloadStep::expired: return "expired";
    case DownloadStep::table_not_served: return "table_not_served";
    case DownloadStep::undeclared_scope_key: return "undeclared_scope_key";
  }
  return "unknown";
}

std::optional<std::string> SegmentDownloadOutcome::header(std::string_view name) const {
  for (const auto& h : headers) {
    if (h.name == name) return h.value;
  }
  return std::nullopt;
}

std::string_view token_refusal_name(TokenRefusal refusal) {
  switch (refusal) {
    case TokenRefusal::malformed: return "malformed";
    case TokenRefusal::bad_signature: return "bad_signature";
    case TokenRefusal::expired: return "expired";
    case TokenRefusal::wrong_segment: return "wrong_segment";
    case TokenRefusal::unknown_segment: return "unknown_segment";
    case TokenRefusal::wrong_audience: return "wrong_audience";
    case TokenRefusal::wrong_scope_digest: return "wrong_scope_digest";
  }
  return "unknown";
}

}  // namespace ssp
