#include "ssp/storage/storage_errors.hpp"

#include <utility>

namespace ssp::storage {

RowDecodeError::RowDecodeError(std::optional<std::string> column, const std::string& problem)
    : InvalidArgument("row codec (§2.4): " + problem), column_(std::move(column)) {}

std::string_view refusal_reason_name(RefusalReason reason) {
  switch (reason) {
    case RefusalReason::stored_newer:
      return "stored_newer";
    case RefusalReason::layouts_disagree:
      return "layouts_disagree";
    case RefusalReason::physical_mismatch:
      return "physical_mismatch";
    case RefusalReason::layouts_unreadable:
      return "layouts_unreadable";
    case RefusalReason::not_append_only:
      return "not_append_only";
    case RefusalReason::row_undecodable:
      return "row_undecodable";
  }
  return "unknown";
}

SchemaRefusal::SchemaRefusal(RefusalReason reason, const std::string& message,
                             std::optional<std::string> table, std::optional<std::string> column)
    : SspError(message), reason_(reason), table_(std::move(table)), column_(std::move(column)) {}

UnknownTable::UnknownTable(const std::string& table)
    : SspError("unknown table \"" + table +
               "\" \u2014 ensureSchema(schema) must run before row operations"),
      table_(table) {}

ServerNotReady::ServerNotReady(std::int64_t version, std::string phase, std::exception_ptr cause)
    : SspError("Syncular server schema " + std::to_string(version) + " is not ready (" + phase +
               ")"),
      phase_(std::move(phase)),
      cause_(std::move(cause)) {}

}  // namespace ssp::storage
