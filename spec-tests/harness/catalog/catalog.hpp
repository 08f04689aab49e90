// The requirements catalog (docs/requirements/*.md) and its traceability
// check: every test is listed under the requirement it is named after, and
// every listed test exists. This keeps the catalog readable as the spec's
// executable index instead of letting it drift.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/catalog/requirement_level.hpp"

namespace ssp::harness {

struct CatalogEntry {
  std::string file;  // where the row is, for messages
  std::string id;    // e.g. "R11", "UPG-R35", "B-3"
  std::string section;  // one or more section ids, comma-separated (section_ids.hpp)
  std::string level;
  std::vector<std::string> tests;  // "Suite.Test", without parameter suffixes
  // The kind column: "conformance" (asks the candidate, runs in
  // ssp-conformance, or in ssp-faults for the fault tests), "self-test" (pins the reference's own internals, runs
  // in ssp-reference-selftests) or "harness" (tests the harness itself).
  std::string kind = "conformance";
  // The requirement in words: the cell of the column whose header starts
  // with "requirement", "" when the table has none.
  std::string text{};
};

// The executables each kind of test belongs in.
inline constexpr const char* kConformanceExecutable = "ssp-conformance";
// The fault tests kill driver processes: an executable of their own, beside
// ssp-conformance, whose in-process and through-driver runs HARNESS-10 compares.
inline constexpr const char* kFaultExecutable = "ssp-faults";
inline constexpr const char* kSelfTestExecutable = "ssp-reference-selftests";

// One page of the catalog as read from disk: its file name and its bytes.
struct CatalogPage {
  std::string file;  // "segments.md"
  std::string text;
};

// The docs/requirements/*.md under `directory`, sorted by file name, each read
// once. A run reads them here and nowhere else: its catalog and the digest its
// reports carry (suite_identity.hpp) are both made from these bytes, so they
// cannot disagree. Throws std::runtime_error when a page cannot be read.
std::vector<CatalogPage> read_catalog_pages(const std::string& directory);

// Every row of every requirements table (a table whose header starts with
// "id" and ends with "tests") of `pages`.
std::vector<CatalogEntry> catalog_of(const std::vector<CatalogPage>& pages);

// catalog_of(read_catalog_pages(directory)), for the checks that read the
// catalog of a source tree.
std::vector<CatalogEntry> load_catalog(const std::string& directory);

// Where a test stands in the catalog: its row's id, section and level.
struct CatalogTest {
  std::string requirement;
  std::string section;
  RequirementLevel level = RequirementLevel::must;
};

// "Suite.Test" → requirement, section and level for every test `catalog`
// lists. A row whose level does not parse counts as MUST: the catalog check
// reports it, and the verdict errs on the strict side.
std::map<std::string, CatalogTest> catalog_tests(const std::vector<CatalogEntry>& catalog);

// "Prefix/Suite", "Test/param" → "Suite.Test": how the catalog names a test,
// without instantiation prefix and parameter suffix.
std::string catalog_test_name(const std::string& suite, const std::string& test);

// The tests registered in this executable, as catalog_test_name gives them,
// sorted, each once.
std::vector<std::string> registered_tests();

// The same for another executable, from what it prints for --gtest_list_tests.
std::vector<std::string> tests_in_listing(const std::string& listing);

// Which tests `registered` holds: those of the running executable (a test
// of a suite it does not have may live in another one), or those of every
// test executable of the project (a listed test must be one of them).
enum class RegisteredScope { one_executable, all_executables };

// What is wrong between the catalog and the registered tests (empty when
// nothing): a registered test no row lists, a row that names no test (TRACE-3),
// a listed test that does not exist (within `scope`), a test listed under an
// id its name does not start with, a duplicated id.
std::vector<std::string> catalog_problems(const std::vector<CatalogEntry>& catalog,
                                          const std::vector<std::string>& registered,
                                          RegisteredScope scope = RegisteredScope::one_executable);

// What is wrong between the kind column and where the tests are registered
// (`tests_by_executable`: executable file name → its tests, sorted as
// tests_in_listing gives them): a conformance
// test that ssp-conformance does not run, a self-test that
// ssp-reference-selftests does not run or that ssp-conformance runs too, a
// kind that is none of the three.
std::vector<std::string> kind_problems(
    const std::vector<CatalogEntry>& catalog,
    const std::map<std::string, std::vector<std::string>>& tests_by_executable);

// What is wrong with the level column (empty when nothing): a level that is
// none of MUST, SHOULD and reference; a reference-level conformance row that
// does not name its decision in parentheses, or names one (D5, Q8, a topic)
// that `decisions` (the text of docs/decisions.md) never mentions as a whole
// name (D1 is not mentioned by "D10", nor D3 by "EJ-D3"). A
// self-test's level is informative only: self-tests never judge a candidate.
std::vector<std::string> level_problems(const std::vector<CatalogEntry>& catalog,
                                        const std::string& decisions);

}  // namespace ssp::harness
