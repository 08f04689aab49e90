#include "table_window_pages.hpp"

#include <algorithm>

#include "ssp/errors/errors.hpp"

namespace ssp::storage {

bool scopes_match(const std::map<std::string, std::string>& stored, const ScopeMap& filter) {
  for (const auto& [variable, values] : filter) {
    const auto found = stored.find(variable);
    if (found == stored.end()) return false;
    if (std::find(values.begin(), values.end(), found->second) == values.end()) return false;
  }
  return true;
}

std::optional<WindowIndexKey> window_index_key(const TableWindowQuery& query) {
  if (query.limit_changes < 1) {
    throw InvalidArgument("read_table_window limit " + std::to_string(query.limit_changes) +
                          " is below 1");
  }
  if (query.scope_filter.empty()) return std::nullopt;
  for (const auto& [variable, values] : query.scope_filter) {
    if (values.empty()) return std::nullopt;
  }
  const auto& [variable, values] = *query.scope_filter.begin();  // a std::map: sorted
  return WindowIndexKey{variable, values};
}

void add_window_row(std::vector<WindowCandidate>& page, std::int64_t seq,
                    const std::function<std::optional<WindowCommit>()>& commit_of_row,
                    const std::function<std::optional<Change>()>& change_of_row) {
  if (page.empty() || page.back().commit_seq != seq) page.push_back({seq, commit_of_row()});
  WindowCandidate& open = page.back();
  if (!open.commit) return;
  if (std::optional<Change> change = change_of_row()) {
    open.commit->changes.push_back(std::move(*change));
  }
}

std::vector<WindowCommit> read_window_pages(const TableWindowQuery& query,
                                            const WindowCandidateRead& read) {
  // A page at least as large as the limit, so that a window that fits in one
  // read takes one.
  const std::int64_t batch = std::max<std::int64_t>(64, query.limit_changes);
  std::vector<WindowCommit> window;
  std::int64_t delivered = 0;
  std::int64_t after_seq = query.after_seq;
  while (delivered < query.limit_changes) {
    const std::vector<WindowCandidate> page = read(after_seq, batch);
    for (const WindowCandidate& candidate : page) {
      after_seq = candidate.commit_seq;
      if (!candidate.commit) continue;
      WindowCommit kept = *candidate.commit;
      std::erase_if(kept.changes, [&](const Change& change) {
        return !scopes_match(change.scopes, query.scope_filter);
      });
      if (kept.changes.empty()) continue;
      delivered += static_cast<std::int64_t>(kept.changes.size());
      window.push_back(std::move(kept));
      if (delivered >= query.limit_changes) break;
    }
    if (static_cast<std::int64_t>(page.size()) < batch) break;
  }
  return window;
}

}  // namespace ssp::storage
