// Reading everything stored for one segment id with one statement: a UNION
// ALL of its sync_segments row, its sync_segment_scopes rows and its
// sync_segment_publications rows. One statement sees one snapshot, so the
// record is consistent (DECISION D11) without an explicit transaction, and it
// costs one trip through the database instead of three (for PostgreSQL, one
// network round trip). Column `part` tells the rows apart; `ord` orders the
// publications, oldest first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "segment_columns.hpp"
#include "ssp/segments/segment_write_plan.hpp"
#include "ssp/segments/stored_record.hpp"

namespace ssp::sql {

// Values of the `part` column.
inline constexpr std::int64_t kTopPart = 0;
inline constexpr std::int64_t kScopePart = 1;
inline constexpr std::int64_t kPublicationPart = 2;

// What differs between dialects.
struct RecordQueryDialect {
  std::string_view id_parameter;       // "?1" (SQLite) or "$1" (PostgreSQL), used three times
  std::string_view publication_order;  // "rowid" (SQLite) or "ord" (PostgreSQL)
};

// The statement. With `with_bytes`, a `bytes` column carries the stored bytes
// on the top row (NULL on the others). The first branch types every column:
// PostgreSQL resolves UNION column types pairwise, and two bare NULLs would
// become text.
inline std::string record_query(const RecordQueryDialect& dialect, bool with_bytes) {
  const std::string where = std::string(" WHERE segment_id = ") + std::string(dialect.id_parameter);
  // The scope rows carry only scope_digest; every other record column is NULL.
  std::string scope_columns;
  std::string_view columns = kRecordColumns;
  while (!columns.empty()) {
    const std::size_t comma = columns.find(", ");
    const std::string_view column = columns.substr(0, comma);
    if (!scope_columns.empty()) scope_columns += ", ";
    scope_columns += column == "scope_digest" ? "scope_digest" : "NULL";
    columns = comma == std::string_view::npos ? std::string_view() : columns.substr(comma + 2);
  }
  const std::string bytes_column = with_bytes ? "bytes, " : "";
  const std::string no_bytes = with_bytes ? "NULL, " : "";
  return "SELECT " + std::to_string(kTopPart) + " AS part, segment_id, " + kRecordColumns + ", " +
         bytes_column + "CAST(NULL AS BIGINT) AS ord FROM sync_segments" + where +
         " UNION ALL SELECT " + std::to_string(kScopePart) + ", segment_id, " + scope_columns +
         ", " + no_bytes + "NULL FROM sync_segment_scopes" + where +
         " UNION ALL SELECT " + std::to_string(kPublicationPart) + ", segment_id, " +
         kRecordColumns + ", " + no_bytes + std::string(dialect.publication_order) +
         " FROM sync_segment_publications" + where;
}

// What is stored under an id, as put needs it before writing.
struct StoredState {
  std::optional<SegmentRecord> record;
  // Scope or publication rows exist (normally those of `record`), so a write
  // must first delete them. A new id has none: its put skips two DELETEs.
  bool side_rows = false;
  // The position (SQLite rowid, PostgreSQL ord) of each stored publication
  // row of `record`, oldest first; empty when its publications are
  // materialized (a legacy row) or it has none.
  std::vector<std::int64_t> publication_positions;
  // Whether sync_segment_scopes holds the primary digest (a 0.21 writer may
  // have replaced the top row after the last backfill).
  bool primary_digest_row = false;

  // What the side tables hold, as plan_segment_write takes it (requires
  // `record`): the digest rows and the publication rows.
  std::span<const std::string> digest_rows() const {
    const std::span<const std::string> all(record->scope_digests);
    return primary_digest_row ? all : all.subspan(1);
  }
  std::span<const SegmentPublication> publication_rows() const {
    if (publication_positions.empty()) return {};
    return std::span<const SegmentPublication>(record->publications);
  }

  // The edits that turn what is stored into `merged` (plan_segment_write); a
  // full rewrite when there is no top row (a new id, or stray side rows).
  SegmentWritePlan write_plan(const SegmentRecord& merged) const {
    if (record) return plan_segment_write(digest_rows(), publication_rows(), merged);
    SegmentWritePlan plan;
    plan.full_rewrite = true;
    return plan;
  }
};

// Collects the rows of record_query, in whatever order they come, and
// assembles the record (assemble_stored_record).
class RecordRows {
 public:
  // Takes one row; returns its part.
  template <typename Row>
  std::int64_t add(const Row& row) {
    const std::int64_t part = row.integer("part");
    switch (part) {
      case kTopPart: top_ = top_level_from_row(row); break;
      case kScopePart: digests_.push_back(row.text("scope_digest")); break;
      default: publications_.emplace_back(row.integer("ord"), publication_from_row(row)); break;
    }
    return part;
  }

  // Absent when the segment has no sync_segments row.
  std::optional<SegmentRecord> record() && { return std::move(*this).state().record; }

  StoredState state() && {
    StoredState state;
    state.side_rows = !digests_.empty() || !publications_.empty();
    if (!top_) return state;
    state.primary_digest_row =
        std::find(digests_.begin(), digests_.end(), top_->metadata.scope_digest) != digests_.end();
    std::sort(publications_.begin(), publications_.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<SegmentPublication> publications;
    publications.reserve(publications_.size());
    state.publication_positions.reserve(publications_.size());
    for (auto& entry : publications_) {
      state.publication_positions.push_back(entry.first);
      publications.push_back(std::move(entry.second));
    }
    state.record =
        assemble_stored_record(std::move(*top_), std::move(digests_), std::move(publications));
    return state;
  }

 private:
  std::optional<SegmentRecord> top_;
  std::vector<std::string> digests_;
  std::vector<std::pair<std::int64_t, SegmentPublication>> publications_;
};

}  // namespace ssp::sql
