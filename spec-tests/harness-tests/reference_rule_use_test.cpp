// Conformance tests and properties take no expected value from the
// reference's rule functions (docs/requirements/harness.md TRACE-9): the scan
// of reference_rule_use.hpp over this repository, and the same scan on
// planted sources, so it is known to find what it should.
#include "harness/catalog/reference_rule_use.hpp"

#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "harness/catalog/spec.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Key;
using ::testing::Not;

const std::string kRoot = SSP_SOURCE_DIR;

std::string read(const std::string& relative) {
  return read_text_file(std::filesystem::path(kRoot) / relative);
}

TEST(ReferenceIndependence, TRACE_9_ConformanceTestsAndPropertiesUseNoReferenceRule) {
  record_spec("Catalog", "TRACE-9");
  const ReferenceRules rules = reference_rules(kRoot + "/reference/include");
  // The harvest still finds the rules a test would be tempted by.
  for (const char* rule :
       {"compile_schema", "encode_row", "decode_row", "layouts_json", "sha256_segment_id",
        "scope_digest", "canonical_scope_json", "physical_index_name", "select_segment_publication",
        "ensure_server_ready", "run_schema_startup", "authorize_segment_download"}) {
    EXPECT_THAT(rules, Contains(Key(rule)));
  }
  EXPECT_THAT(rules, Not(Contains(Key("media_type_name")))) << "a name, not a rule";
  const auto files = conformance_sources(kRoot);
  EXPECT_THAT(files, Contains("spec-tests/storage/s2_4_migration_test.cpp"));
  EXPECT_THAT(files, Contains("property-tests/download/download_oracle.cpp"));
  EXPECT_THAT(files, Contains("spec-tests/harness/fixtures/storage_fixtures.cpp"));
  EXPECT_THAT(files, Not(Contains("spec-tests/harness/candidate/reference_areas.cpp")));
  for (const auto& file : files) {
    EXPECT_THAT(reference_rule_uses(file, read(file), rules, accepted_reference_uses()), IsEmpty());
  }
  EXPECT_THAT(stale_accepted_uses(kRoot, rules, accepted_reference_uses()), IsEmpty());
}

TEST(ReferenceIndependence, TRACE_9_TheCheckFindsEachKindOfUse) {
  record_spec("Catalog", "TRACE-9");
  const ReferenceRules rules = {{"encode_row", "ssp/storage/row_codec.hpp"},
                                {"scope_digest", "ssp/scopes/scope_digest.hpp"},
                                {"layouts_json", "ssp/storage/layouts.hpp"}};
  const std::string source =
      "#include \"ssp/storage/row_codec.hpp\"\n"                        // 1 data header
      "#include \"ssp/scopes/scope_digest.hpp\"\n"                             // 2 a rule header
      "auto a = storage::encode_row(columns, row);\n"                   // 3 qualified
      "auto b = scope_digest (scopes);\n"                               // 4 unqualified
      "auto c = candidate.schema().compile(s).layouts_json;\n"          // 5 a member, no call
      "auto d = answer.layouts_json(x) + area->encode_row(y);\n"        // 6 member calls
      "// storage::encode_row(columns, row) in a comment\n"             // 7
      "auto e = \"scope_digest(x)\" + std::string(R\"(encode_row(\n"    // 8 strings, raw over
      "layouts_json(x))\");\n"                                          // 9 two lines
      "auto f = harness::layouts_json(schema);\n"                       // 10 another namespace
      "std::string layouts_json(const Schema& s) { return {}; }\n"      // 11 a same-named helper
      "auto g = ::ssp::scope_digest(scopes); /* scope_digest(x) */\n";  // 12
  const auto problems = reference_rule_uses("t.cpp", source, rules);
  EXPECT_THAT(problems, ElementsAre(HasSubstr("t.cpp:2: includes ssp/scopes/scope_digest.hpp"),
                                    HasSubstr("t.cpp:3: encode_row(…) is the reference's rule"),
                                    HasSubstr("t.cpp:4: scope_digest(…)"),
                                    HasSubstr("t.cpp:11: layouts_json(…)"),
                                    HasSubstr("t.cpp:12: scope_digest(…)")));
  // An accepted use is not reported; an accepted use that matches nothing is stale.
  const std::vector<AcceptedUse> accepted = {{"t.cpp", "scope_digest", "planted"},
                                             {"t.cpp", "ssp/scopes/scope_digest.hpp", "planted"}};
  EXPECT_THAT(reference_rule_uses("t.cpp", source, rules, accepted),
              ElementsAre(HasSubstr("t.cpp:3:"), HasSubstr("t.cpp:11:")));
  const std::string planted = "spec-tests/harness-tests/catalog_test.cpp";
  EXPECT_THAT(stale_accepted_uses(kRoot, rules, {{planted, "scope_digest", "planted"}}),
              ElementsAre(HasSubstr(planted + ": the accepted use of scope_digest matches nothing")));
}

TEST(ReferenceIndependence, TRACE_9_TheHarvestReadsDeclarationsNotCalls) {
  record_spec("Catalog", "TRACE-9");
  std::random_device random;
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() /
      ("ssp-trace-8-" + std::to_string(random()) + std::to_string(random()));
  std::filesystem::create_directories(root / "ssp" / "storage");
  std::ofstream(root / "ssp" / "storage" / "rules.hpp")
      << "namespace ssp::storage {\n"
         "struct Row { int size() const; };\n"
         "std::string encode_row(const Row& row);\n"
         "inline std::string layouts_json(const Schema& s) { return layouts_json(of(s)); }\n"
         "std::optional<std::pair<int, int>> compare_layouts(const A& a,\n"
         "                                                   const B& b);\n"
         "std::string_view media_type_name(MediaType type);\n"
         "bool operator==(const Row&, const Row&);\n"
         "using Hasher = std::function<std::string(int)>;\n"
         "// std::string commented_out(int);\n"
         "}  // namespace ssp::storage\n";
  const ReferenceRules rules = reference_rules(root.string());
  std::filesystem::remove_all(root);
  EXPECT_EQ(rules, (ReferenceRules{{"compare_layouts", "ssp/storage/rules.hpp"},
                                   {"encode_row", "ssp/storage/rules.hpp"},
                                   {"layouts_json", "ssp/storage/rules.hpp"}}));
}

}  // namespace
}  // namespace ssp::harness
