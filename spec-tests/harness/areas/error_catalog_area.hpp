// The candidate's §10.2 error catalog: what it answers for each code.
#pragma once

#include <string>
#include <vector>

namespace ssp::harness {

struct ErrorCatalogRow {
  std::string code;
  std::string category;
  bool retryable = false;
  std::string recommended_action;
  int http_status = 0;
  friend bool operator==(const ErrorCatalogRow&, const ErrorCatalogRow&) = default;
};

class ErrorCatalogArea {
 public:
  virtual ~ErrorCatalogArea() = default;

  // Every code the candidate knows, in the order of the §10.2 table.
  virtual std::vector<ErrorCatalogRow> list() = 0;
};

}  // namespace ssp::harness
