#include "harness/util/printers.hpp"

#include <gtest/gtest.h>

namespace ssp {
namespace {

void print_text(const std::optional<std::string>& text, std::ostream* out) {
  if (text) {
    ::testing::internal::UniversalPrint(*text, out);
  } else {
    *out << "null";
  }
}

}  // namespace

void PrintTo(const SegmentMetadata& m, std::ostream* out) {
  *out << "{partition ";
  ::testing::internal::UniversalPrint(m.partition, out);
  *out << ", logEpoch ";
  ::testing::internal::UniversalPrint(m.log_epoch, out);
  *out << ", table ";
  ::testing::internal::UniversalPrint(m.table, out);
  *out << ", schemaVersion " << m.schema_version << ", mediaType "
       << media_type_name(m.media_type) << ", scopeDigest ";
  ::testing::internal::UniversalPrint(m.scope_digest, out);
  *out << ", asOfCommitSeq " << m.as_of_commit_seq << ", rowCount " << m.row_count
       << ", rowCursor ";
  print_text(m.row_cursor, out);
  *out << ", nextRowCursor ";
  print_text(m.next_row_cursor, out);
  *out << "}";
}

void PrintTo(const SegmentPublication& p, std::ostream* out) {
  *out << "{";
  PrintTo(p.metadata, out);
  *out << ", byteLength " << p.byte_length << ", createdAtMs " << p.created_at_ms
       << ", expiresAtMs " << p.expires_at_ms << "}";
}

void PrintTo(const SegmentRecord& r, std::ostream* out) {
  *out << "{segmentId " << r.segment_id << ", top ";
  PrintTo(r.metadata, out);
  *out << ", scopeDigests ";
  ::testing::internal::UniversalPrint(r.scope_digests, out);
  *out << ", byteLength " << r.byte_length << ", createdAtMs " << r.created_at_ms
       << ", expiresAtMs " << r.expires_at_ms << ", publications [";
  for (const auto& p : r.publications) {
    *out << "\n    ";
    PrintTo(p, out);
  }
  *out << "]}";
}

void PrintTo(const SegmentStoreStats& s, std::ostream* out) {
  *out << "{count " << s.count << ", bytes " << s.bytes << ", rowsSegments " << s.rows_segments
       << ", sqliteSegments " << s.sqlite_segments << "}";
}

}  // namespace ssp
