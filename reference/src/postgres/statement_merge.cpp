#include "statement_merge.hpp"

#include <string_view>

namespace ssp::storage {
namespace {

// Whether two writes may touch the same row: one key is the other's prefix.
// Keys end with a separator (write_key), so a key names a row or a set of
// rows, and a row's scope entry falls within the set of its row's entries.
bool overlap(std::string_view a, std::string_view b) {
  return a.substr(0, b.size()) == b || b.substr(0, a.size()) == a;
}

// An output statement while merging: one statement of the input, or an
// INSERT of several of the input's rows.
struct Pending {
  std::vector<const Statement*> rows;  // the input statements it sends, in order

  // Whether a write of `writes` may not move before this statement.
  bool blocks(const std::string& writes) const {
    for (const Statement* row : rows) {
      if (row->writes.empty() || overlap(row->writes, writes)) return true;
    }
    return false;
  }

  bool takes(const Statement& insert) const {
    const Statement& first = *rows.front();
    return first.insert && first.insert->head == insert.insert->head &&
           first.insert->tail == insert.insert->tail &&
           first.params.values().size() == insert.params.values().size() &&
           rows.size() < kMaxMergedRows;
  }
};

// The index in `pending` before which `writes` may not move: one past the
// last entry that blocks it, 0 when none does.
std::size_t earliest_place(const std::vector<Pending>& pending, const std::string& writes) {
  for (std::size_t i = pending.size(); i-- > 0;) {
    if (pending[i].blocks(writes)) return i + 1;
  }
  return 0;
}

Statement multi_row_insert(const Pending& pending) {
  const RowInsert& shape = *pending.rows.front()->insert;
  Statement merged;
  merged.sql = shape.head + " VALUES ";
  for (const Statement* row : pending.rows) {
    if (row != pending.rows.front()) merged.sql += ", ";
    append_values_row(merged, row->params);
  }
  merged.sql += shape.tail;
  return merged;
}

}  // namespace

std::vector<Statement> merge_row_inserts(const std::vector<const Statement*>& statements) {
  std::vector<Pending> pending;
  for (const Statement* statement : statements) {
    const bool moves = statement->insert || statement->independent;
    if (statement->writes.empty() || !moves) {
      pending.push_back({{statement}});
      continue;
    }
    const std::size_t earliest = earliest_place(pending, statement->writes);
    if (statement->insert) {
      bool merged = false;
      for (std::size_t i = pending.size(); i-- > earliest;) {
        if (pending[i].takes(*statement)) {
          pending[i].rows.push_back(statement);
          merged = true;
          break;
        }
      }
      if (!merged) pending.push_back({{statement}});
    } else {  // independent
      pending.insert(pending.begin() + static_cast<std::ptrdiff_t>(earliest), {{statement}});
    }
  }
  std::vector<Statement> out;
  out.reserve(pending.size());
  for (const Pending& each : pending) {
    out.push_back(each.rows.size() == 1 ? *each.rows.front() : multi_row_insert(each));
  }
  return out;
}

}  // namespace ssp::storage
