// The catalog across every test executable, the coverage of the design-note
// ids and the documents' references (docs/requirements/harness.md,
// TRACE-3 … TRACE-6). Each check also runs on planted defects, so it is
// known to fail when it should.
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "harness/catalog/catalog.hpp"
#include "harness/catalog/coverage.hpp"
#include "harness/catalog/design_note_ids.hpp"
#include "harness/catalog/doc_links.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/catalog/spec_sections.hpp"
#include "harness/util/child_process.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kRequirements = std::string(SSP_SOURCE_DIR) + "/docs/requirements";

// The test executables CMake found (one path per line).
std::vector<std::string> test_executables() {
  std::ifstream in(SSP_TEST_EXECUTABLES_FILE);
  std::vector<std::string> paths;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

// A fresh directory that is removed with this object.
struct TempDirectory {
  std::filesystem::path path;
  TempDirectory() {
    std::random_device random;
    path = std::filesystem::temp_directory_path() /
           ("ssp-trace-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path);
  }
  ~TempDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  void write(const std::string& relative, const std::string& text) const {
    std::filesystem::create_directories((path / relative).parent_path());
    std::ofstream(path / relative) << text;
  }
};

// Executable file name → its tests, for every test executable CMake found.
std::map<std::string, std::vector<std::string>> tests_by_executable() {
  std::map<std::string, std::vector<std::string>> tests;
  for (const auto& executable : test_executables()) {
    const ChildRun listing = run_child(executable, {"--gtest_list_tests"});
    EXPECT_TRUE(listing.exited && listing.exit_code == 0) << executable << "\n" << listing.err;
    tests[std::filesystem::path(executable).filename().string()] = tests_in_listing(listing.out);
  }
  return tests;
}

TEST(CatalogAcrossExecutables, TRACE_3_EveryListedTestExistsInSomeTestExecutable) {
  record_spec("Catalog", "TRACE-3");
  EXPECT_THAT(test_executables(), Contains(std::string(SSP_CONFORMANCE)));
  const auto executables = tests_by_executable();
  ASSERT_GE(executables.size(), 2u) << "read from " << SSP_TEST_EXECUTABLES_FILE;
  std::vector<std::string> everywhere;
  for (const auto& [executable, tests] : executables) {
    EXPECT_THAT(tests, Contains(HasSubstr("Catalog.TRACE_1_")))
        << executable << " does not run the catalog check";
    everywhere.insert(everywhere.end(), tests.begin(), tests.end());
  }
  const auto problems =
      catalog_problems(load_catalog(kRequirements), everywhere, RegisteredScope::all_executables);
  EXPECT_THAT(problems, IsEmpty());
}

TEST(CatalogAcrossExecutables, TRACE_7_EachKindOfTestRunsWhereItsKindSays) {
  record_spec("Catalog", "TRACE-7");
  const auto executables = tests_by_executable();
  ASSERT_TRUE(executables.contains(kConformanceExecutable));
  ASSERT_TRUE(executables.contains(kSelfTestExecutable));
  const auto catalog = load_catalog(kRequirements);
  EXPECT_THAT(kind_problems(catalog, executables), IsEmpty());
  const auto rows_of = [&](const std::string& kind) {
    return std::count_if(catalog.begin(), catalog.end(),
                         [&](const CatalogEntry& entry) { return entry.kind == kind; });
  };
  EXPECT_GT(rows_of("conformance"), 0);
  EXPECT_GT(rows_of("self-test"), 0);
  EXPECT_GT(rows_of("harness"), 0);
}

TEST(CatalogAcrossExecutables, TRACE_7_TheCheckFindsEachMisplacedTest) {
  record_spec("Catalog", "TRACE-7");
  const std::vector<CatalogEntry> catalog = {
      {"a.md", "R1", "§5.1", "MUST", {"S.R1_Asks", "S.R1_Elsewhere"}, "conformance"},
      {"a.md", "R2", "§5.1", "MUST", {"T.R2_Pins", "T.R2_Both", "T.R2_Nowhere"}, "self-test"},
      {"a.md", "R3", "§5.1", "MUST", {"H.R3_Anywhere"}, "harness"},
      {"a.md", "R4", "§5.1", "MUST", {"S.R4_X"}, ""},
      {"a.md", "R5", "§6.4", "MUST", {"F.R5_Killed"}, "conformance"},
      {"a.md", "R6", "§6.4", "MUST", {"F.R6_Pinned"}, "self-test"},
  };
  const std::map<std::string, std::vector<std::string>> executables = {
      {kConformanceExecutable, {"S.R1_Asks", "S.R4_X", "T.R2_Both"}},
      {kFaultExecutable, {"F.R5_Killed", "F.R6_Pinned"}},
      {kSelfTestExecutable, {"F.R6_Pinned", "T.R2_Both", "T.R2_Pins"}},  // sorted
      {"ssp-harness-tests", {"H.R3_Anywhere", "S.R1_Elsewhere"}},
  };
  const auto problems = kind_problems(catalog, executables);
  EXPECT_THAT(problems, Contains(HasSubstr(
                            "lists S.R1_Elsewhere, which neither ssp-conformance nor ssp-faults")));
  EXPECT_THAT(problems, Contains(HasSubstr("lists T.R2_Both, which ssp-conformance or ssp-faults runs")));
  EXPECT_THAT(problems,
              Contains(HasSubstr("lists T.R2_Nowhere, which ssp-reference-selftests does not")));
  EXPECT_THAT(problems, Contains(HasSubstr("R4 has kind ''")));
  // A fault test asks the candidate from ssp-faults: conformance, never a self-test.
  EXPECT_THAT(problems, Contains(HasSubstr("lists F.R6_Pinned, which ssp-conformance or ssp-faults runs")));
  EXPECT_EQ(problems.size(), 5u) << ::testing::PrintToString(problems);
}

TEST(Coverage, TRACE_4_EveryDesignNoteIdIsCoveredOrListedAsAGap) {
  record_spec("Catalog", "TRACE-4");
  const Coverage coverage = load_coverage(kRequirements);
  ASSERT_FALSE(coverage.inventory.empty());
  ASSERT_FALSE(coverage.gaps.empty());
  EXPECT_THAT(coverage_problems(load_catalog(kRequirements), coverage), IsEmpty());
}

TEST(Coverage, TRACE_4_TheCheckFindsEachKindOfGap) {
  record_spec("Catalog", "TRACE-4");
  EXPECT_EQ(expand_id_ranges("R1…R3, ADM-R48, SEG-INV-9…SEG-INV-10"),
            (std::vector<std::string>{"R1", "R2", "R3", "ADM-R48", "SEG-INV-9", "SEG-INV-10"}));
  EXPECT_THROW(expand_id_ranges("R3…UPG-R5"), std::invalid_argument);
  const std::vector<CatalogEntry> catalog = {
      {"s.md", "R1", "§5.1", "MUST", {"S.R1_A"}},
      {"s.md", "R2", "§5.1", "MUST", {"S.R2_A"}},
      {"s.md", "R3", "§5.1", "MUST", {}},
      {"s.md", "MODEL", "§5.1", "MUST", {"S.MODEL_A"}},
  };
  Coverage coverage;
  coverage.inventory = expand_id_ranges("R1…R6, INV-1…INV-2");
  coverage.aliases = {{"c.md", "INV-1", "MODEL"}, {"c.md", "INV-2", "R3"}};
  coverage.gaps = {{"c.md", "R2", "a gap that has tests", "issue 10"},
                   {"c.md", "R4", "a gap without reason", ""},
                   {"c.md", "R9", "not a design-note id", "because"}};
  const auto problems = coverage_problems(catalog, coverage);
  EXPECT_THAT(problems, Contains(HasSubstr("R2 is c.md (not yet covered) and also in s.md")));
  EXPECT_THAT(problems, Contains(HasSubstr("R4 is not yet covered but says no reason")));
  EXPECT_THAT(problems, Contains(HasSubstr("R9 is c.md (not yet covered) but is no id")));
  EXPECT_THAT(problems, Contains(HasSubstr("INV-2 is covered by R3, which has no catalog row")));
  EXPECT_THAT(problems, Contains(HasSubstr("design-note id R3 is in no catalog row")));
  EXPECT_THAT(problems, Contains(HasSubstr("design-note id R5 is in no catalog row")));
  EXPECT_THAT(problems, Contains(HasSubstr("design-note id R6 is in no catalog row")));
  EXPECT_EQ(problems.size(), 7u);
}

TEST(Coverage, TRACE_5_TheInventoryListsExactlyTheDesignNotesIds) {
  record_spec("Catalog", "TRACE-5");
  const std::string notes = design_notes_directory(SSP_SOURCE_DIR);
  const auto ids = design_note_ids(notes);
  if (!ids) GTEST_SKIP() << "no design notes at " << notes << " to compare the inventory with";
  ASSERT_GT(ids->size(), 100u) << "the notes were read, but few ids were found";
  const auto inventory = load_coverage(kRequirements).inventory;
  const std::set<std::string> in_notes(ids->begin(), ids->end());
  const std::set<std::string> listed(inventory.begin(), inventory.end());
  EXPECT_EQ(in_notes.size(), ids->size()) << "an id is defined twice in the notes";
  EXPECT_EQ(listed.size(), inventory.size()) << "an id is listed twice in the inventory";
  for (const auto& id : in_notes) EXPECT_TRUE(listed.count(id)) << id << " is not inventoried";
  for (const auto& id : listed) EXPECT_TRUE(in_notes.count(id)) << id << " is in no design note";
}

TEST(Coverage, TRACE_5_DesignNoteIdsAreReadPerSection) {
  record_spec("Catalog", "TRACE-5");
  TempDirectory notes;
  EXPECT_FALSE(design_note_ids(notes.path.string())) << "no notes, no ids";
  notes.write("storage.md",
              "## 6. Numbered\n- **A-1 [§2.4]** x\n- **D-2 [§2.1]** y\n"
              "## 7. Invariants\n1. **Idempotent** z\n2. **Refusal** w\n"
              "## 8. Open\n- **Q1.** not a requirement\n");
  notes.write("segments.md",
              "## 4. Testable\n### Identity\n- **§5.1-R1**: a\n- **UPG-R35**: b\n"
              "## 5. Invariants\n16. **Atomicity**: c\n");
  notes.write("push.md",
              "### 4.4 How to test\n- **T-CV-READER** (both)\n"
              "### 6.1 Pipeline\n1. [§2.1] seq\n### 6.2 Races\n10. **R1 duplicate** d\n"
              "### 6.3 Properties\n- **P1 dense seq**: e\n");
  EXPECT_EQ(design_note_ids(notes.path.string()),
            (std::vector<std::string>{"A-1", "D-2", "INV-1", "INV-2", "R1", "UPG-R35", "SEG-INV-16",
                                      "PUSH-T-CV-READER", "PUSH-1", "PUSH-R1", "PUSH-P1"}));
}

// Only here, not in the suites: whether the spec is beside the clone must
// not change a run of ssp-conformance, whose reports make docs/conformance.md.
TEST(SpecSections, TRACE_10_TheCommittedListIsTheSpecsHeadings) {
  record_spec("Catalog", "TRACE-10");
  const std::string spec = spec_document_path(SSP_SOURCE_DIR);
  if (!std::filesystem::is_regular_file(spec)) {
    GTEST_SKIP() << spec << " is not present: fixtures/spec-sections.txt is checked against it "
                 << "where it is";
  }
  EXPECT_EQ(listed_section_ids(read_text_file(std::string(SSP_SOURCE_DIR) +
                                                  "/fixtures/spec-sections.txt")),
            spec_section_ids(read_text_file(spec)))
      << "fixtures/spec-sections.txt must list exactly the ids of " << spec << "'s headings";
}

TEST(DocumentLinks, TRACE_6_DocumentsPointOnlyInsideTheRepository) {
  record_spec("Catalog", "TRACE-6");
  const auto documents = repository_documents(SSP_SOURCE_DIR);
  EXPECT_THAT(documents, Contains(HasSubstr("README.md")));
  EXPECT_THAT(documents, Contains(HasSubstr("docs/requirements/harness.md")));
  for (const auto& document : documents) {
    EXPECT_THAT(outside_references(SSP_SOURCE_DIR, document), IsEmpty());
  }
}

TEST(DocumentLinks, TRACE_6_TheCheckFindsEachKindOfOutsideReference) {
  record_spec("Catalog", "TRACE-6");
  TempDirectory repository;
  const std::string root = repository.path.string();
  repository.write("README.md", "See [docs](docs/a.md) and `docs/a.md`.\n");
  repository.write("docs/a.md",
                   "Fine: [b](b.md), [up](../README.md), [web](https://example.org/x.md).\n"
                   "Notes: `../shared/design/segments.md` §4.\n"
                   "Escape: [x](../../outside.md)\n"
                   "Absolute: [y](/etc/passwd)\n"
                   "Gone: design/storage.md §6\n");
  repository.write("docs/b.md", "nothing\n");
  EXPECT_THAT(outside_references(root, root + "/README.md"), IsEmpty());
  EXPECT_THAT(outside_references(root, root + "/docs/b.md"), IsEmpty());
  const auto problems = outside_references(root, root + "/docs/a.md");
  EXPECT_THAT(problems, Contains(HasSubstr("docs/a.md:2: ../shared/design/segments.md is")));
  EXPECT_THAT(problems, Contains(HasSubstr("docs/a.md:3: ../../outside.md is a path outside")));
  EXPECT_THAT(problems, Contains(HasSubstr("docs/a.md:4: /etc/passwd is an absolute path")));
  EXPECT_THAT(problems, Contains(HasSubstr("docs/a.md:5: design/storage.md is a path to no file")));
  EXPECT_EQ(problems.size(), 5u) << "the escaping link is seen as a link and as a path";
}

}  // namespace
}  // namespace ssp::harness
