// Shared values of the download and signed-URL tests: scope sets, their
// digests as known answers, and base metadata published for them (its scope
// digest is theirs, as a pull would publish it).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <string>

#include "harness/segment_fixtures.hpp"
#include "ssp/scope_map.hpp"

namespace ssp::harness {

inline const ScopeMap kScopesP1 = {{"project_id", {"p1"}}};
inline const ScopeMap kScopesP2 = {{"project_id", {"p2"}}};

// The §3.5 digests of the scope sets these tests publish for: sha256 of the
// §11.2 canonical text shown beside each, computed with python3 hashlib
// (hashlib.sha256(text.encode()).hexdigest()), never by the code under test.
// {"project_id":["p1"]} (the §3.5 golden value)
inline const std::string kDigestP1 =
    "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6";
// {"project_id":["p2"]}
inline const std::string kDigestP2 =
    "4f31ff4f5a00cc2ce2b6cb605c994d2283e3b03293c35c8791f2eb7f84cde4e2";

// The known digest of `scopes`, one of the sets listed here. Throws
// std::logic_error for any other set: a test publishing a new set adds its
// digest (computed as above) to this table.
inline const std::string& known_scope_digest(const ScopeMap& scopes) {
  static const std::map<ScopeMap, std::string> known = {
      {kScopesP1, kDigestP1},
      {kScopesP2, kDigestP2},
      // {"org_id":["o1"]}
      {{{"org_id", {"o1"}}}, "5e5f00fc9f2692c874b2827cf9eb007f232e0c89e5f3a4a5b771df2af67afe96"},
      // {"projectId":["p1"]}
      {{{"projectId", {"p1"}}}, "876fd90c8762f62a588db8c63667844f5b593022346290f75d80d2e0e5d9f889"},
      // {"project_id":["*"]}
      {{{"project_id", {"*"}}}, "518b141658b1f4d3ba85cf62c17a6d7a2fbdce9463a044480f969e9d904192d3"},
      // {"__proto__":["x"]}
      {{{"__proto__", {"x"}}}, "7ec4ac6fed1c9a8438da03b0e473d152087eabc6d1b76cc42643ba7f3ab137d2"},
  };
  const auto found = known.find(scopes);
  if (found == known.end()) {
    throw std::logic_error("no known digest for " + nlohmann::json(scopes).dump() +
                           ": add it to known_scope_digest");
  }
  return found->second;
}

// `scopes` as an X-Syncular-Scopes header: compact JSON, written by
// nlohmann::json rather than the reference. The decision parses the header
// and digests what it keeps, so the header need not be canonical.
inline std::string scopes_header(const ScopeMap& scopes) { return nlohmann::json(scopes).dump(); }

// M (base_metadata) published for `scopes` (a set known_scope_digest knows),
// in `table` and `partition`.
inline SegmentMetadata published_for(const ScopeMap& scopes, const std::string& table = "tasks",
                                     const std::string& partition = "p") {
  SegmentMetadata m = base_metadata();
  m.table = table;
  m.partition = partition;
  m.scope_digest = known_scope_digest(scopes);
  return m;
}

}  // namespace ssp::harness
