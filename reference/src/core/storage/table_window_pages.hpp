// Pull's read, the part every SQL backend shares (design notes storage.md
// §5.1; ServerStorage::read_table_window has the contract): which queries
// read nothing, which change a filter allows, and how pages of candidate
// commits, selected through the change-scope index on one variable, become
// the window. A backend supplies only the page read.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/table_window.hpp"

namespace ssp::storage {

// Whether `stored` satisfies `filter`: every variable of the filter is
// stored, with one of its values.
bool scopes_match(const std::map<std::string, std::string>& stored, const ScopeMap& filter);

// The index entries that select candidate commits: sync_change_scopes rows of
// the table with this variable (the filter's first, in sorted order) and one
// of these values. The other variables are checked on each change.
struct WindowIndexKey {
  std::string variable;
  std::vector<std::string> values;
};

// The key of `query`, or nothing when it reads nothing (an empty filter, a
// variable with no values). Throws InvalidArgument for a limit below 1.
std::optional<WindowIndexKey> window_index_key(const TableWindowQuery& query);

// A commit the index selected, as a backend read it: its seq, and its
// metadata with every change of the table in idx order, or nothing when the
// commit row is gone (pruned between the index read and the join).
struct WindowCandidate {
  std::int64_t commit_seq = 0;
  std::optional<WindowCommit> commit;
};

// Adds one row of a backend's page read, whose rows come in (seq, idx)
// order: a row whose seq is not the last candidate's opens a candidate with
// `commit_of_row()` (nothing when the commit row is gone); `change_of_row()`
// (nothing when the commit holds no change of the table) joins the open
// candidate when its commit is there.
void add_window_row(std::vector<WindowCandidate>& page, std::int64_t seq,
                    const std::function<std::optional<WindowCommit>()>& commit_of_row,
                    const std::function<std::optional<Change>()>& change_of_row);

// Reads candidates after a seq, in seq order, at most `batch` of them, each
// once.
using WindowCandidateRead =
    std::function<std::vector<WindowCandidate>(std::int64_t after_seq, std::int64_t batch)>;

// The window of `query` through `read`, page after page, until the matching
// changes reach the limit or the candidates run out.
std::vector<WindowCommit> read_window_pages(const TableWindowQuery& query,
                                            const WindowCandidateRead& read);

}  // namespace ssp::storage
