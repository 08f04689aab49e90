#include "ssp/download/segment_download.hpp"

#include <algorithm>

#include "ssp/download/download_decision.hpp"
#include "ssp/errors/error_catalog.hpp"
#include "ssp/scopes/effective_scopes.hpp"
#include "ssp/scopes/parse_scope_map.hpp"
#include "ssp/scopes/scope_digest.hpp"
#include "ssp/segments/publication_selection.hpp"
#include "ssp/segments/segment_id.hpp"

namespace ssp {
namespace {

constexpr const char* kUnknownSegment = "unknown segment (§5.5)";

// §5.5 response headers. The ETag is the quoted content address: the bytes
// behind an id never change, so the id is a strong validator.
std::vector<HttpHeader> success_headers(const std::string& etag, bool with_content_type) {
  std::vector<HttpHeader> headers;
  if (with_content_type) headers.push_back({"Content-Type", "application/octet-stream"});
  headers.push_back({"ETag", etag});
  headers.push_back({"Cache-Control", "private, max-age=0"});
  headers.push_back({"Vary", "Authorization, X-Syncular-Scopes, Accept-Encoding"});
  return headers;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

// If-None-Match uses weak comparison (RFC 9110 §13.1.2): "*" or any listed
// entity tag, W/ prefix ignored, equal to the quoted ETag.
bool if_none_match_names(std::string_view header, std::string_view quoted_etag) {
  while (!header.empty()) {
    const auto comma = header.find(',');
    std::string_view tag = trim(header.substr(0, comma));
    if (tag == "*") return true;
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == quoted_etag) return true;
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return false;
}

SegmentDownloadOutcome refused(SegmentDownloadOutcome outcome, DownloadStep step,
                               std::string_view code, std::string message) {
  outcome.step = step;
  outcome.error = protocol_error(code, std::move(message));
  outcome.http_status = outcome.error->entry.http_status;
  return outcome;
}

// Step 7's key check (§3.2 rule 2) for `table`: the first requested key the
// table does not declare or that asks for '*', described; nothing if all fit.
std::optional<std::string> key_misfit(const ServedTables& served, const std::string& table,
                                      const ScopeMap& requested) {
  for (const auto& [key, values] : requested) {
    if (!served.declares(table, key)) {
      return "table '" + table + "' does not declare scope key '" + key + "'";
    }
    if (std::find(values.begin(), values.end(), "*") != values.end()) {
      return "scope key '" + key + "' requests '*', which only allowed scopes may hold";
    }
  }
  return std::nullopt;
}

}  // namespace

SegmentDownloadOutcome authorize_segment_download(SegmentStore& store, ScopeResolver& resolver,
                                                  const ServedTables& served,
                                                  const SegmentDownloadRequest& request) {
  SegmentDownloadOutcome outcome;

  // 1. The id comes from a URL path: a malformed one is simply unknown.
  if (!is_well_formed_segment_id(request.segment_id)) {
    return refused(std::move(outcome), DownloadStep::unknown_segment, error_code::not_found,
                   kUnknownSegment);
  }
  std::optional<StoredSegment> entry = store.get(request.segment_id);
  if (!entry) {
    return refused(std::move(outcome), DownloadStep::unknown_segment, error_code::not_found,
                   kUnknownSegment);
  }

  // 2. Only grants of the caller's partition and current epoch count; the same
  // message as step 1 so a foreign partition's segment looks unknown. A live
  // epoch is never empty (§2.1): rows from pre-epoch databases carry '' and
  // must not match a caller whose epoch is missing.
  for (const auto& publication : entry->record.publications) {
    if (publication.metadata.partition == request.partition &&
        publication.metadata.log_epoch == request.log_epoch && !request.log_epoch.empty()) {
      outcome.in_context.push_back(publication);
    }
  }
  if (outcome.in_context.empty()) {
    return refused(std::move(outcome), DownloadStep::not_in_context, error_code::not_found,
                   kUnknownSegment);
  }

  // 3. The requested scopes.
  if (request.scopes_header.size() > kMaxScopesHeaderBytes) {
    return refused(std::move(outcome), DownloadStep::invalid_scopes_header,
                   error_code::invalid_request,
                   "X-Syncular-Scopes is longer than " + std::to_string(kMaxScopesHeaderBytes) +
                       " bytes (§5.5)");
  }
  ScopeMap requested;
  try {
    requested = parse_scope_map(request.scopes_header);
  } catch (const InvalidScopeMap& invalid) {
    return refused(std::move(outcome), DownloadStep::invalid_scopes_header,
                   error_code::invalid_request,
                   std::string("X-Syncular-Scopes: ") + invalid.what() + " (§5.5)");
  }

  // 4. Re-authorize now: a descriptor obtained earlier is no bearer grant.
  std::optional<ScopeMap> allowed;
  try {
    allowed = resolver.resolve(request.actor_id);
  } catch (...) {
    // Fail closed: a throwing resolver is an authorization bug, never a leak.
    return refused(std::move(outcome), DownloadStep::scopes_not_held, error_code::forbidden,
                   "segment scopes not held (§5.5): the scope resolver failed");
  }
  if (!allowed) {
    return refused(std::move(outcome), DownloadStep::scopes_not_held, error_code::forbidden,
                   "segment scopes not held (§5.5): the scope resolver reported an outage");
  }
  outcome.effective = compute_effective(requested, *allowed);
  if (outcome.effective->status != ScopeStatus::active) {
    std::string message =
        "segment scopes not held (§5.5): " + outcome.effective->revoked_because;
    return refused(std::move(outcome), DownloadStep::scopes_not_held, error_code::forbidden,
                   std::move(message));
  }

  // 5. The digest is compared with each in-context publication's own digest.
  outcome.effective_digest = scope_digest(outcome.effective->scopes);
  std::vector<const SegmentPublication*> for_digest;
  for (const auto& publication : outcome.in_context) {
    if (publication.metadata.scope_digest == *outcome.effective_digest) {
      for_digest.push_back(&publication);
    }
  }
  if (for_digest.empty()) {
    return refused(std::move(outcome), DownloadStep::scope_digest_mismatch, error_code::forbidden,
                   "scope digest mismatch (§3.5, §5.5)");
  }

  // 6. TTL is per publication: another digest's live grant rescues nothing.
  std::vector<const SegmentPublication*> live;
  for (const auto* publication : for_digest) {
    if (publication->is_live(request.now_ms)) live.push_back(publication);
  }
  if (live.empty()) {
    return refused(std::move(outcome), DownloadStep::expired, error_code::segment_expired,
                   "segment expired (§5.5): re-pull for a fresh descriptor");
  }

  // 7. The schema still serves the table and declares what was requested.
  const SegmentPublication* chosen = nullptr;
  std::optional<std::string> misfit;
  bool any_served = false;
  for (const auto* publication : live) {
    if (!served.serves(publication->metadata.table)) continue;
    any_served = true;
    auto problem = key_misfit(served, publication->metadata.table, requested);
    if (problem) {
      misfit = std::move(problem);
    } else {
      chosen = publication;  // 9. publications are oldest first: the last wins
    }
  }
  if (!chosen) {
    if (!any_served) {
      return refused(std::move(outcome), DownloadStep::table_not_served, error_code::not_found,
                     "segment table no longer served");
    }
    return refused(std::move(outcome), DownloadStep::undeclared_scope_key,
                   error_code::invalid_subscription, *misfit + " (§3.2)");
  }

  // 9. Served, narrowed to the chosen grant so nothing unions across grants.
  outcome.record = publication_record(entry->record, *chosen);
  const std::string etag = "\"" + request.segment_id + "\"";
  if (request.if_none_match && if_none_match_names(*request.if_none_match, etag)) {
    outcome.step = DownloadStep::not_modified;
    outcome.http_status = 304;
    outcome.headers = success_headers(etag, false);
    return outcome;
  }
  outcome.step = DownloadStep::served;
  outcome.http_status = 200;
  outcome.headers = success_headers(etag, true);
  outcome.bytes = std::move(entry->bytes);
  return outcome;
}

}  // namespace ssp
