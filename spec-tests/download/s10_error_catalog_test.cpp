// SSP2 §10.2 codes (EC-R* in docs/requirements/download.md), asked of the
// candidate's error-catalog area. The expected table is
// fixtures/cases/error_catalog/spec_10_2.json: the SPEC table's columns, read
// from SPEC.md, independently of reference/src/core/errors/error_catalog.cpp; HTTP
// statuses the SPEC does not name follow upstream (docs/download.md). The
// §10.1 error body is the reference's own (self-tests/error_catalog_internals_test.cpp).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <set>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/gates/capability_gate.hpp"

namespace ssp::harness {
namespace {

nlohmann::json spec_table() {
  return nlohmann::json::parse(read_fixture("cases/error_catalog/spec_10_2.json"));
}

class ErrorCatalog : public ::testing::Test {
 protected:
  void SetUp() override {
    SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::error_catalog);
    listed_ = current_candidate().error_catalog().list();
  }
  // The candidate's row for `code`, or nothing.
  std::optional<ErrorCatalogRow> row(const std::string& code) const {
    const auto found = std::find_if(listed_.begin(), listed_.end(),
                                    [&](const ErrorCatalogRow& r) { return r.code == code; });
    if (found == listed_.end()) return std::nullopt;
    return *found;
  }
  std::vector<ErrorCatalogRow> listed_;
};

TEST_F(ErrorCatalog, EC_R1_EveryCodeHasItsSpecCategoryRetryabilityAndAction) {
  record_spec("§10.2", "EC-R1");
  const auto codes = spec_table().at("codes");
  ASSERT_EQ(listed_.size(), codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const auto& expected = codes[i];
    SCOPED_TRACE(expected.at("code").get<std::string>());
    // In the table's order; field by field, so a failure says which. The
    // HTTP status is not a column of the SPEC table: EC-R1-REF.
    EXPECT_EQ(listed_[i].code, expected.at("code").get<std::string>());
    EXPECT_EQ(listed_[i].category, expected.at("category").get<std::string>());
    EXPECT_EQ(listed_[i].retryable, expected.at("retryable").get<bool>());
    EXPECT_EQ(listed_[i].recommended_action, expected.at("recommendedAction").get<std::string>());
  }
}

// Reference level (docs/decisions.md, "HTTP statuses"): the statuses the SPEC
// names are checked at the MUST level where it names them (EC-R3 for §5.5);
// the others are upstream's.
TEST_F(ErrorCatalog, EC_R1_REF_EveryCodeHasUpstreamsHttpStatus) {
  record_spec("§10.2", "EC-R1-REF");
  const auto codes = spec_table().at("codes");
  ASSERT_EQ(listed_.size(), codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    SCOPED_TRACE(codes[i].at("code").get<std::string>());
    EXPECT_EQ(listed_[i].http_status, codes[i].at("httpStatus").get<int>());
  }
}

TEST_F(ErrorCatalog, EC_R2_CodesAreUniqueAndActionsComeFromTheSpecList) {
  record_spec("§10.1", "EC-R2");
  const auto verbs = spec_table().at("actions_10_1").get<std::set<std::string>>();
  ASSERT_EQ(verbs.size(), 12u);
  ASSERT_FALSE(listed_.empty());
  std::set<std::string> codes;
  for (const ErrorCatalogRow& entry : listed_) {
    EXPECT_TRUE(codes.insert(entry.code).second) << "duplicate " << entry.code;
    EXPECT_TRUE(verbs.contains(entry.recommended_action)) << entry.code;
  }
}

TEST_F(ErrorCatalog, EC_R3_TheSegmentCodesAreTheOnesSection5_5Names) {
  record_spec("§5.5", "EC-R3");
  const auto forbidden = row("sync.forbidden");
  const auto not_found = row("sync.not_found");
  const auto expired = row("sync.segment_expired");
  const auto invalid = row("sync.invalid_request");
  const auto subscription = row("sync.invalid_subscription");
  ASSERT_TRUE(forbidden && not_found && expired && invalid && subscription);
  EXPECT_EQ(forbidden->http_status, 403);
  EXPECT_EQ(not_found->http_status, 404);
  EXPECT_EQ(expired->http_status, 404);
  EXPECT_TRUE(expired->retryable);
  EXPECT_FALSE(not_found->retryable);
  EXPECT_EQ(invalid->category, "invalid-request");
  EXPECT_EQ(subscription->category, "invalid-request");
}

TEST_F(ErrorCatalog, EC_R4_TheCatalogIsClosed) {
  record_spec("§10.3", "EC-R4");
  // Reserved codes without a producer and client-local codes are not wire codes.
  ASSERT_FALSE(listed_.empty());
  // A copy, not a reference into spec_table()'s temporary, which a range-for
  // would destroy before its first iteration (ASan found it).
  const auto not_wire_codes = spec_table().at("not_wire_codes_10_3");
  for (const auto& c : not_wire_codes) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    EXPECT_FALSE(row(c.at("code").get<std::string>()));
  }
}

}  // namespace
}  // namespace ssp::harness
