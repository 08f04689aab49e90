// error_catalog.list (docs/driver-protocol.md, "error_catalog"): the §10.2 table.
#include "methods.hpp"
#include "ssp/errors/error_catalog.hpp"

namespace ssp::driver {
namespace {

Json error_catalog_list(const Fields&) {
  Json entries = Json::array();
  for (const ErrorCatalogEntry& entry : error_catalog()) {
    entries.push_back({{"code", entry.code},
                       {"category", entry.category},
                       {"retryable", entry.retryable},
                       {"recommendedAction", entry.recommended_action},
                       {"httpStatus", entry.http_status}});
  }
  return Json{{"entries", std::move(entries)}};
}

}  // namespace

void add_error_catalog_methods(MethodTable& table) {
  table["error_catalog.list"] = error_catalog_list;
}

}  // namespace ssp::driver
