// A current application row as the server storage holds it.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ssp/storage/row.hpp"

namespace ssp::storage {

// A current row (storage.md §5.1 StoredRow): the verbatim payload is the serve
// source of truth; scopes are the stored scope values (§3.1).
struct StoredRow {
  std::string row_id;
  std::int64_t server_version = 1;
  std::map<std::string, std::string> scopes;
  Bytes payload;

  friend bool operator==(const StoredRow&, const StoredRow&) = default;
};

}  // namespace ssp::storage
