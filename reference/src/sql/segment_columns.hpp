// The column vocabulary shared by the SQLite and PostgreSQL segment tables:
// names (identical to upstream) and the mapping between a result row and the
// value types. `Row` is any type with integer(name), text(name) and
// nullable_text(name); both backends' row adapters provide them, so a column
// is always read by name, never by position (a pre-epoch table has log_epoch
// last).
#pragma once

#include "ssp/segments/segment_types.hpp"
#include "ssp/segments/stored_media_type.hpp"

namespace ssp::sql {

// Columns of the metadata of a sync_segments or sync_segment_publications row,
// plus byte length and times, in the order the INSERT statements bind them.
inline constexpr const char* kRecordColumns =
    "partition, log_epoch, tbl, schema_version, media_type, scope_digest, as_of_commit_seq, "
    "row_count, row_cursor, next_row_cursor, byte_length, created_at_ms, expires_at_ms";

template <typename Row>
SegmentMetadata metadata_from_row(const Row& row) {
  SegmentMetadata m;
  m.partition = row.text("partition");
  m.log_epoch = row.text("log_epoch");
  m.table = row.text("tbl");
  m.schema_version = row.integer("schema_version");
  m.media_type = media_type_from_stored(row.text("media_type"));
  m.scope_digest = row.text("scope_digest");
  m.as_of_commit_seq = row.integer("as_of_commit_seq");
  m.row_count = row.integer("row_count");
  m.row_cursor = row.nullable_text("row_cursor");
  m.next_row_cursor = row.nullable_text("next_row_cursor");
  return m;
}

template <typename Row>
SegmentPublication publication_from_row(const Row& row) {
  return SegmentPublication{metadata_from_row(row), row.integer("byte_length"),
                            row.integer("created_at_ms"), row.integer("expires_at_ms")};
}

// The top level of a record from a sync_segments row (segment_id included);
// scope digests and publications are filled in by assemble_stored_record.
template <typename Row>
SegmentRecord top_level_from_row(const Row& row) {
  const SegmentPublication top = publication_from_row(row);
  SegmentRecord record;
  record.segment_id = row.text("segment_id");
  record.metadata = top.metadata;
  record.byte_length = top.byte_length;
  record.created_at_ms = top.created_at_ms;
  record.expires_at_ms = top.expires_at_ms;
  return record;
}

// Binds the 13 kRecordColumns values of `p` starting at placeholder `first`
// through `bind(index, value)`, where value is int64, string or
// optional<string>. Returns the next free placeholder index.
template <typename Bind>
int bind_record_columns(Bind&& bind, int first, const SegmentPublication& p) {
  const SegmentMetadata& m = p.metadata;
  int i = first;
  bind(i++, m.partition);
  bind(i++, m.log_epoch);
  bind(i++, m.table);
  bind(i++, m.schema_version);
  bind(i++, std::string(media_type_name(m.media_type)));
  bind(i++, m.scope_digest);
  bind(i++, m.as_of_commit_seq);
  bind(i++, m.row_count);
  bind(i++, m.row_cursor);
  bind(i++, m.next_row_cursor);
  bind(i++, p.byte_length);
  bind(i++, p.created_at_ms);
  bind(i++, p.expires_at_ms);
  return i;
}

// The top level of a record as a publication-shaped value, for binding.
inline SegmentPublication top_level_of(const SegmentRecord& r) {
  return SegmentPublication{r.metadata, r.byte_length, r.created_at_ms, r.expires_at_ms};
}

}  // namespace ssp::sql
