// What every storage property shares: the backend fixture (sqlite, postgres),
// a fresh seeded database per generated case, and a property runner with a
// smaller default case count (each case creates real databases).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "harness/storage_fixtures.hpp"
#include "storage_generators.hpp"

namespace ssp::properties {

// Runs `testable` as a RapidCheck property inside the current gtest. The case
// count is `default_cases` unless RC_PARAMS sets max_success.
template <typename Testable>
void check_property(Testable&& testable, int default_cases = 25) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* configured = std::getenv("RC_PARAMS");
  if (configured == nullptr || std::string(configured).find("max_success") == std::string::npos) {
    params.maxSuccess = default_cases;
  }
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(test->test_suite_name()) + "/" + test->name();
  metadata.description = test->name();
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    FAIL() << message.str();
  }
}

// `text` as a SQL string literal ('' doubles a quote in both dialects).
inline std::string sql_literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

class StorageProperty : public harness::StorageTest {
 protected:
  // A fresh database of this backend holding `schema` (ensured) and `rows`.
  std::unique_ptr<harness::TestDatabase> seeded(const storage::ServerSchema& schema,
                                                const std::vector<GeneratedRow>& rows) {
    auto db = fresh_database();
    auto storage = open_on(*db);
    storage->ensure_schema(storage::compile_schema(schema));
    for (const GeneratedRow& row : rows) storage->upsert_row(row.partition, row.table, row.row);
    return db;
  }
};

}  // namespace ssp::properties
