#include "ssp/scopes/scope_digest.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "ssp/encoding/json_text.hpp"
#include "ssp/encoding/utf16_order.hpp"
#include "ssp/segments/segment_id.hpp"

namespace ssp {
namespace {

void require_utf8(std::string_view text, const std::string& key) {
  if (!is_well_formed_utf8(text)) {
    throw InvalidScopeMap("scope map key '" + key + "' holds text that is not UTF-8");
  }
}

// Lowercase hex SHA-256 of `canonical`. sha256_segment_id is the project's one
// SHA-256 hex routine; a digest is its hex part.
std::string sha256_hex(const std::string& canonical) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(canonical.data());
  constexpr std::size_t kIdPrefixLength = 7;  // "sha256:"
  return sha256_segment_id(std::span(data, canonical.size())).substr(kIdPrefixLength);
}

}  // namespace

std::string canonical_scope_json(const ScopeMap& scopes) {
  // ScopeMap orders keys by bytes; §11.2 wants UTF-16 code-unit order.
  std::vector<const ScopeMap::value_type*> entries;
  entries.reserve(scopes.size());
  for (const auto& entry : scopes) {
    require_utf8(entry.first, entry.first);
    entries.push_back(&entry);
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto* a, const auto* b) { return Utf16Less{}(a->first, b->first); });

  std::string out = "{";
  for (const auto* entry : entries) {
    if (out.size() > 1) out.push_back(',');
    append_json_string(out, entry->first);
    out += ":[";
    std::vector<std::string_view> values(entry->second.begin(), entry->second.end());
    for (const auto value : values) require_utf8(value, entry->first);
    std::sort(values.begin(), values.end(), Utf16Less{});
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out.push_back(',');
      append_json_string(out, values[i]);
    }
    out.push_back(']');
  }
  out.push_back('}');
  return out;
}

std::string scope_digest(const ScopeMap& scopes) { return sha256_hex(canonical_scope_json(scopes)); }

std::string scope_digest_report_json(const ScopeMap& scopes) {
  const std::string canonical = canonical_scope_json(scopes);
  std::string out = "{\"canonicalJson\":";
  append_json_string(out, canonical);
  out += ",\"scopeDigest\":";
  append_json_string(out, sha256_hex(canonical));
  out.push_back('}');
  return out;
}

}  // namespace ssp
