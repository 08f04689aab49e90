// The requirements catalog and the suite agree (docs/requirements/*.md).
#include "harness/catalog/catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "harness/catalog/spec.hpp"
#include "harness/catalog/source_citations.hpp"
#include "harness/catalog/spec_sections.hpp"
#include "harness/data/data_directory.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

// Why a check of the repository's own files (docs, test sources) skips where
// the suite is installed: only a build tree links its sources.
constexpr const char* kNoRepository =
    "an installed suite has no repository: this check of its own files runs in a build tree";

// The catalog the suite reads, from the data directory.
std::vector<CatalogEntry> the_catalog() { return load_catalog(data_path("requirements").string()); }

// Whether one of `problems` contains `text`.
bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

TEST(Catalog, TRACE_1_EveryTestIsCatalogedUnderItsRequirement) {
  record_spec("Catalog", "TRACE-1");
  const auto catalog = the_catalog();
  ASSERT_FALSE(catalog.empty());
  for (const auto& problem : catalog_problems(catalog, registered_tests())) {
    ADD_FAILURE() << problem;
  }
}

TEST(Catalog, TRACE_2_TheCheckFindsEachKindOfDrift) {
  record_spec("Catalog", "TRACE-2");
  const std::vector<CatalogEntry> catalog = {
      {"a.md", "R1", "§5.1", "MUST", {"Suite.R1_Exists", "Suite.R1_Missing", "Suite.R2_Misfiled"}},
      {"b.md", "R1", "§5.1", "MUST", {}},
      {"b.md", "R3", "§5.1", "MUST", {"OtherBinary.R3_NotOurs"}},
  };
  const std::vector<std::string> registered = {"Suite.R1_Exists", "Suite.R2_Misfiled",
                                               "Suite.R4_Uncataloged"};
  const auto problems = catalog_problems(catalog, registered);
  EXPECT_TRUE(mentions(problems, "Suite.R1_Missing, which does not exist"));
  EXPECT_TRUE(mentions(problems, "Suite.R2_Misfiled is listed under R1"));
  EXPECT_TRUE(mentions(problems, "R1 is also listed in a.md"));
  EXPECT_TRUE(mentions(problems, "Suite.R4_Uncataloged is in no row"));
  EXPECT_FALSE(mentions(problems, "OtherBinary"))
      << "suites of other executables are not checked here";
  EXPECT_EQ(problems.size(), 5u);  // and b.md's R1 names no test (TRACE-3)
}

TEST(Catalog, TRACE_3_ARowWithoutAnExistingTestIsReported) {
  record_spec("Catalog", "TRACE-3");
  const std::vector<CatalogEntry> catalog = {
      {"a.md", "R1", "§5.1", "MUST", {"Suite.R1_Exists"}},
      {"a.md", "R2", "§5.1", "MUST", {}},
      {"a.md", "R3", "§5.1", "MUST", {"Elsewhere.R3_Gone"}},
  };
  const std::vector<std::string> registered = {"Suite.R1_Exists"};
  // One executable: the empty row is a problem; another suite may live elsewhere.
  const auto here = catalog_problems(catalog, registered);
  EXPECT_TRUE(mentions(here, "requirement R2 names no test"));
  EXPECT_FALSE(mentions(here, "Elsewhere"));
  EXPECT_EQ(here.size(), 1u);
  // Every executable: a listed test of a suite none of them has is missing.
  const auto everywhere = catalog_problems(catalog, registered, RegisteredScope::all_executables);
  EXPECT_TRUE(mentions(everywhere, "R3 lists Elsewhere.R3_Gone, which does not exist"));
  EXPECT_EQ(everywhere.size(), 2u);
}

TEST(Catalog, TRACE_8_EveryRowHasALevelAndAReferenceRowNamesItsDecision) {
  record_spec("Catalog", "TRACE-8");
  const auto repository = repository_directory();
  if (!repository) GTEST_SKIP() << kNoRepository;
  const std::string decisions = read_text_file(*repository / "docs/decisions.md");
  const auto catalog = the_catalog();
  ASSERT_FALSE(catalog.empty());
  for (const auto& problem : level_problems(catalog, decisions)) ADD_FAILURE() << problem;

  // Each kind of drift, on rows written here.
  CatalogEntry row{"a.md", "R1", "§5.1", "MUST", {"Suite.R1_X"}};
  std::vector<CatalogEntry> rows;
  for (const char* level : {"MUST", "SHOULD", "reference (D5)", "DECISION", "reference",
                            "reference (D5, Q99)", "reference (D1)", "reference (D3)",
                            "reference (EJ-D3)"}) {
    row.level = level;
    rows.push_back(row);
  }
  row.kind = "self-test";
  row.level = "reference";
  rows.push_back(row);  // a self-test's decision is informative only
  // A decision is named whole: D10 does not mention D1, nor EJ-D3 D3.
  const auto problems = level_problems(rows, "| D5 find tie-break |\n| D10 x |\n| EJ-D3 y |");
  EXPECT_TRUE(mentions(problems, "level 'DECISION', which is none of"));
  EXPECT_TRUE(mentions(problems, "level 'reference': a reference-level conformance row names"));
  EXPECT_TRUE(mentions(problems, "does not mention 'Q99'"));
  EXPECT_TRUE(mentions(problems, "does not mention 'D1'"));
  EXPECT_TRUE(mentions(problems, "does not mention 'D3'"));
  EXPECT_EQ(problems.size(), 5u);
}

TEST(Catalog, TRACE_11_EveryConformanceRowNamesItsSource) {
  record_spec("Catalog", "TRACE-11");
  const auto repository = repository_directory();
  if (!repository) GTEST_SKIP() << kNoRepository;
  auto index = parse_spec_keyword_index(read_text_file(*repository / "docs/spec-keywords.md"));
  ASSERT_GT(index.occurrences.size(), 100u) << "docs/spec-keywords.md lists no occurrences";
  ASSERT_FALSE(index.diff_hunks.empty()) << "docs/spec-keywords.md lists no diff file";
  index.sentences =
      parse_spec_sentence_index(read_text_file(*repository / "docs/spec-sentences.md"));
  ASSERT_GT(index.sentences.size(), 1000u) << "docs/spec-sentences.md lists no sentences";
  index.upstream_files = parse_upstream_manifest(
      read_text_file(*repository / "docs/requirements/upstream-files.md"));
  ASSERT_GT(index.upstream_files.size(), 20u)
      << "docs/requirements/upstream-files.md lists no upstream file";
  const auto catalog = the_catalog();
  ASSERT_FALSE(catalog.empty());
  for (const auto& problem : source_problems(catalog, index)) ADD_FAILURE() << problem;
}

TEST(Catalog, TRACE_11_TheCheckFindsEachKindOfWrongSource) {
  record_spec("Catalog", "TRACE-11");
  SpecKeywordIndex index = parse_spec_keyword_index(
      "| section | keyword | occurrence | line |\n|---|---|---|---|\n"
      "| \u00a76.4 | MUST | 1 | 10 |\n| \u00a76.4 | MUST | 2 | 12 |\n"
      "| \u00a76.4 | MUST NOT | 1 | 12 |\n| \u00a76.3 | SHOULD | 1 | 9 |\n\n"
      "| diff file | path | hunks |\n|---|---|---|\n| storage.ts | `package/src/storage.ts` | 2 |\n");
  index.upstream_files = parse_upstream_manifest(
      "# Upstream files\n\nCommit: `0123`\n\n| path |\n|---|\n| `package/src/push.ts` |\n"
      "| `core/src/row-codec.ts` |\n");
  EXPECT_EQ(index.upstream_files,
            (std::set<std::string>{"package/src/push.ts", "core/src/row-codec.ts"}));
  index.sentences = parse_spec_sentence_index(
      "| section | sentence | line | hash |\n|---|---|---|---|\n"
      "| \u00a76.4 | 1 | 10 | 0123abcd |\n| \u00a76.4 | 2 | 11 | aaaaaaaa |\n"
      "| \u00a711.2 | 1 | 90 | cccccccc |\n");
  EXPECT_EQ(index.occurrences.size(), 4u);
  EXPECT_EQ(index.diff_hunks.at("storage.ts"), 2);
  EXPECT_EQ(index.sentences.size(), 3u);

  std::vector<CatalogEntry> rows;
  for (const char* level : {
           "MUST (\u00a76.4 MUST#2, \u00a76.4 MUST NOT#1)",  // right
           "SHOULD (\u00a76.3 SHOULD#1)",                    // right
           "0.22 (diff storage.ts @@2, upstream package/src/push.ts)",  // right
           "reference (D5)",                                  // level_problems' to judge
           "MUST",                                            // no citation
           "MUST (\u00a76.4 MUST#3)",                         // no such occurrence
           "MUST (\u00a76.3 SHOULD#1)",                       // a SHOULD cannot back a MUST
           "SHOULD (\u00a76.4 MUST#1)",                       // nor a MUST a SHOULD
           "MUST (6.4 must 2)",                               // not written as a citation
           "0.22",                                            // no source
           "0.22 (diff storage.ts @@3)",                      // no such hunk
           "0.22 (diff push.ts)",                             // not a file of the diff
           "0.22 (the release)",                              // neither form
           "0.22 (upstream core/src/row-codec.ts)",           // right: a file of @syncular/core
           "0.22 (upstream package/src/core/row-codec.ts)",   // no such file upstream
           "MUST (\u00a76.4 MUST#2, \u00a76.4 S#2 [aaaaaaaa])",  // right: R16
           "MUST (\u00a76.4 S#2 [aaaaaaaa])",                  // a sentence backs no MUST
           "MUST (\u00a76.4 MUST#1, \u00a76.4 S#2 [bbbbbbbb])",  // reworded since
           "MUST (\u00a76.4 MUST#1, \u00a76.4 S#9 [aaaaaaaa])",  // no such sentence
           "MUST (\u00a76.4 MUST#1, \u00a76.4 S2 [aaaaaaaa])",   // not written as a citation
           "0.22 (diff storage.ts, \u00a76.4 S#1 [0123abcd])",  // right: R21
           "0.22 (\u00a76.4 S#1 [0123abcd])",                   // nor a 0.22 row
       }) {
    rows.push_back(
        {"a.md", "R" + std::to_string(rows.size() + 1), "\u00a76.4, \u00a76.3", level, {}});
  }
  // Rows of §11.2 whose keyword is §6.4's: the first names no sentence of
  // §11.2, the second does.
  rows.push_back({"a.md", "R23", "\u00a711.2", "MUST (\u00a76.4 MUST#1)", {}});
  rows.push_back({"a.md", "R24", "\u00a711.2, \u00a76.3",
                  "MUST (\u00a76.4 MUST#1, \u00a711.2 S#1 [cccccccc])", {}});
  CatalogEntry harness_row{"h.md", "H1", "Catalog", "MUST", {}};
  harness_row.kind = "harness";  // judges no candidate: needs no source
  rows.push_back(harness_row);

  const auto problems = source_problems(rows, index);
  EXPECT_TRUE(mentions(problems, "R5 (MUST) cites no keyword occurrence"));
  EXPECT_TRUE(mentions(problems, "R6 (MUST (\u00a76.4 MUST#3)) cites \u00a76.4 MUST#3, which SSP2 does not have"));
  EXPECT_TRUE(mentions(problems, "R7 (MUST (\u00a76.3 SHOULD#1)) cites a SHOULD, which cannot back a MUST row"));
  EXPECT_TRUE(mentions(problems, "R8 (SHOULD (\u00a76.4 MUST#1)) cites a MUST, which cannot back a SHOULD row"));
  EXPECT_TRUE(mentions(problems, "R9 (MUST (6.4 must 2)) cites '6.4 must 2', not a keyword occurrence"));
  EXPECT_TRUE(mentions(problems, "R10 (0.22) names no file of the 0.22 release"));
  EXPECT_TRUE(mentions(problems, "R11 (0.22 (diff storage.ts @@3)) names hunk @@3 of storage.ts, which has 2"));
  EXPECT_TRUE(mentions(problems, "R12 (0.22 (diff push.ts)) names push.ts, which is not a file of the 0.22 diff"));
  EXPECT_TRUE(mentions(problems, "R13 (0.22 (the release)) names 'the release', neither"));
  EXPECT_TRUE(mentions(problems, "R15 (0.22 (upstream package/src/core/row-codec.ts)) names "
                                 "upstream package/src/core/row-codec.ts, which upstream does "
                                 "not have"));
  EXPECT_TRUE(mentions(problems, "R17 (MUST (\u00a76.4 S#2 [aaaaaaaa])) cites only sentences "
                                 "of SSP2: a sentence without a keyword backs no MUST"));
  EXPECT_TRUE(mentions(problems, "R18 (MUST (\u00a76.4 MUST#1, \u00a76.4 S#2 [bbbbbbbb])) "
                                 "cites \u00a76.4 S#2 [bbbbbbbb], but that sentence's words now "
                                 "hash to aaaaaaaa"));
  EXPECT_TRUE(mentions(problems, "R19 (MUST (\u00a76.4 MUST#1, \u00a76.4 S#9 [aaaaaaaa])) cites "
                                 "\u00a76.4 S#9 [aaaaaaaa], a sentence SSP2 does not have"));
  EXPECT_TRUE(mentions(problems, "R20 (MUST (\u00a76.4 MUST#1, \u00a76.4 S2 [aaaaaaaa])) cites "
                                 "'\u00a76.4 S2 [aaaaaaaa]', not a keyword occurrence"));
  EXPECT_TRUE(mentions(problems, "R22 (0.22 (\u00a76.4 S#1 [0123abcd])) cites only sentences of "
                                 "SSP2: a 0.22 row rests on a file of the release"));
  EXPECT_TRUE(mentions(problems, "R23 (MUST (\u00a76.4 MUST#1)) reaches its keyword only through "
                                 "another section: cite the sentence of \u00a711.2"));
  EXPECT_EQ(problems.size(), 16u);
  for (const auto& problem : problems) {
    for (const char* right : {"R1 ", "H1", "R16 ", "R21 ", "R24 "}) {
      EXPECT_EQ(problem.find(right), std::string::npos) << problem;
    }
  }
  EXPECT_THROW(parse_spec_sentence_index("| section | sentence | line | hash |\n|---|---|---|---|\n"
                                         "| \u00a76.4 | 1 | 10 | not-hex |\n"),
               std::runtime_error);
  EXPECT_THROW(parse_spec_keyword_index("| section | keyword | occurrence | line |\n|---|---|---|---|\n"
                                        "| \u00a76.4 | MUST | two | 10 |\n"),
               std::runtime_error);
}

// record_spec calls of every test source of the suites in `repository`.
std::vector<RecordedSection> recorded_sections_of_the_tests(
    const std::filesystem::path& repository) {
  std::vector<RecordedSection> recorded;
  for (const char* tree : {"spec-tests", "property-tests"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(repository / tree)) {
      if (entry.path().extension() != ".cpp") continue;
      const std::string file = std::filesystem::relative(entry.path(), repository).string();
      for (auto& call : recorded_sections(file, read_text_file(entry.path()))) {
        recorded.push_back(std::move(call));
      }
    }
  }
  return recorded;
}

std::vector<std::string> committed_section_list() {
  return listed_section_ids(read_text_file(data_path("fixtures/spec-sections.txt")));
}

TEST(Catalog, TRACE_10_EverySectionACatalogRowOrATestNamesExistsInSsp2) {
  record_spec("Catalog", "TRACE-10");
  const auto repository = repository_directory();
  if (!repository) GTEST_SKIP() << kNoRepository;
  const auto catalog = the_catalog();
  ASSERT_FALSE(catalog.empty());
  const auto recorded = recorded_sections_of_the_tests(*repository);
  ASSERT_GT(recorded.size(), 100u) << "the record_spec calls were not found";
  for (const auto& problem : section_problems(catalog, recorded, committed_section_list())) {
    ADD_FAILURE() << problem;
  }
}

TEST(Catalog, TRACE_10_TheCheckFindsEachKindOfWrongSection) {
  record_spec("Catalog", "TRACE-10");
  EXPECT_EQ(spec_section_ids("# Title\n## Conventions and more\n## 0. Decisions\n"
                             "### 5.9 Blobs\n#### 5.9.1 The value\n## 10. Errors\n"
                             "### 8.7 Twice\n### 8.7 Twice\nText 5.1 not a heading\n"),
            (std::vector<std::string>{"Conventions", "\u00a70", "\u00a75.9", "\u00a75.9.1",
                                      "\u00a710", "\u00a78.7"}));
  EXPECT_EQ(listed_section_ids("# comment\n\n\u00a75.1\nConventions\n"),
            (std::vector<std::string>{"\u00a75.1", "Conventions"}));
  EXPECT_EQ(recorded_sections("a.cpp",
                              "record_spec(\"\u00a76.3, \u00a72.3\", \"PUSH-5\");"
                              " record_spec(section, \"X\");")
                .size(),
            1u);

  const std::vector<std::string> known = {"\u00a75.1", "\u00a75.5", "\u00a73.2", "Conventions"};
  std::vector<CatalogEntry> catalog = {
      {"a.md", "R1", "\u00a75.1, \u00a75.5", "MUST", {"S.R1_X"}},
      {"a.md", "R2", "\u00a75.5 \u00a73.2", "MUST", {"S.R2_X"}},
      {"a.md", "R3", "\u00a799.1", "MUST", {"S.R3_X"}},
      {"a.md", "R4", "Catalog", "MUST", {"S.R4_X"}},
      {"a.md", "R5", "", "MUST", {"S.R5_X"}},
  };
  CatalogEntry harness_row{"h.md", "H1", "Catalog, Conventions", "MUST", {"S.H1_X"}};
  harness_row.kind = "harness";
  catalog.push_back(harness_row);
  const std::vector<RecordedSection> recorded = {
      {"t.cpp", "\u00a75.5", "R1"},
      {"t.cpp", "\u00a73.2", "R1"},
      {"t.cpp", "\u00a75.1", "R9"},
  };
  const auto problems = section_problems(catalog, recorded, known);
  EXPECT_TRUE(mentions(problems, "R2 names section \"\u00a75.5 \u00a73.2\", which is not one id"));
  EXPECT_TRUE(mentions(problems, "R3 names section \"\u00a799.1\", which SSP2 does not have"));
  EXPECT_TRUE(mentions(problems, "R4 names section \"Catalog\", which SSP2 does not have"))
      << "a harness area in a conformance row";
  EXPECT_TRUE(mentions(problems, "R5 names no section"));
  EXPECT_TRUE(mentions(problems, "t.cpp: R1 records section \"\u00a73.2\", which its catalog row"));
  EXPECT_TRUE(mentions(problems, "t.cpp: record_spec names requirement R9, which no catalog row"));
  EXPECT_EQ(problems.size(), 6u);
}

}  // namespace
}  // namespace ssp::harness
