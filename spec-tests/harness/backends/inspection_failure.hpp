// What a failed statement of the harness's own SQL means (dumps, triggers,
// corruption, seeding: test_database.hpp). The harness reads the candidate's
// tables behind its back, so a missing table or column there is a finding
// about the candidate, said in words; a statement the harness got wrong is a
// harness error; anything else (a constraint a test provoked on purpose) is
// left to the caller.
#pragma once

#include <stdexcept>
#include <string>

namespace ssp::harness {

// The candidate's database lacks a table or column the harness reads. Its
// message names the table (or column), the layout that has it and the SSP2
// section: "the candidate's database has no table sync_segment_publications
// (the 0.22 segment layout, §5.1)". A failure of the candidate, not an error.
class CandidateLayoutMissing : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads `message`, a database's error text for the harness statement `sql`
// (SQLite's or PostgreSQL's wording), and throws CandidateLayoutMissing for a
// missing table or column of the candidate's, or HarnessError for a syntax
// error or a missing object of the harness's own (named ssp_…). Returns for
// anything else.
void raise_inspection_failure(const std::string& message, const std::string& sql);

// Where a table of the candidate's database comes from, e.g. "the 0.22
// segment layout, §5.1"; an unknown name is a table of the configured schema.
std::string table_origin(const std::string& table);

}  // namespace ssp::harness
