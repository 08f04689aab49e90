// Everything the reports of one run are written from (report_files.hpp): who
// ran, under which profile, how it ended, and every test's record.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/catalog.hpp"
#include "harness/verdict/exercised.hpp"
#include "harness/verdict/section_table.hpp"
#include "harness/verdict/suite_identity.hpp"
#include "harness/verdict/test_record.hpp"
#include "harness/verdict/verdict_profile.hpp"

namespace ssp::harness {

struct RunSummary {
  std::string executable;  // "ssp-conformance"
  SuiteIdentity suite;     // what judged the run
  std::string candidate;   // the name the candidate gave
  VerdictProfile profile = VerdictProfile::spec;
  int exit_status = 0;
  std::vector<TestRecord> tests;           // in the order they ended
  std::vector<NotedTest> outside_tests;    // failures outside every test: they fail the run
  Exercised exercised;                     // what the run exercised of the candidate
  std::vector<CatalogEntry> requirements;  // the catalog's rows, for what the tests refer to
};

}  // namespace ssp::harness
