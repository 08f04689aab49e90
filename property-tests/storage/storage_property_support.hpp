// What every storage property shares: the backend fixture (sqlite, postgres),
// a fresh seeded database per generated case, and the property runner (its
// callers pass a smaller case count: each case creates real databases).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <functional>
#include <string>

#include "harness/fixtures/storage_fixtures.hpp"
#include "property_run.hpp"
#include "storage_generators.hpp"

namespace ssp::properties {

// How many cases a storage property runs unless RC_PARAMS sets max_success:
// every case creates real databases, so fewer than RapidCheck's default, the
// same on both backends.
inline constexpr int kStoragePropertyCases = 25;

// Runs `property` with check_property and the storage case count.
inline void check_storage_property(const std::function<void()>& property,
                                   int cases = kStoragePropertyCases) {
  check_property(property, cases);
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
    storage->ensure_schema(harness::compiled(schema));
    for (const GeneratedRow& row : rows) storage->upsert_row(row.partition, row.table, row.row);
    return db;
  }
};

}  // namespace ssp::properties
