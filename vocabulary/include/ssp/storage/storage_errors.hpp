// Typed errors of the server storage. Each names the table, column or field
// it refuses; refusal messages that upstream pins are reproduced exactly.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "ssp/errors/errors.hpp"

namespace ssp::storage {

// A schema that does not compile (storage.md §1.1), or a schema JSON document
// that is not a valid schema. The message names the table/column/index or the
// JSON field path (e.g. `tables[1].columns[0].type`).
class SchemaError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// §2.4 row-codec decode failure: the message names the column (or the null
// bitmap). Maps to sync.invalid_request on the wire.
class RowDecodeError : public InvalidArgument {
 public:
  RowDecodeError(std::optional<std::string> column, const std::string& problem);
  // The column being read, or "" for the bitmap and trailing bytes. Nothing
  // when the decoder did not say: a candidate's refusal the harness relays
  // (upstream's DecodeError names no column); the reference always says.
  const std::optional<std::string>& column() const { return column_; }

 private:
  std::optional<std::string> column_;
};

// Why ensure_schema refused to serve or migrate a database.
enum class RefusalReason {
  stored_newer,        // §2.2 step 4: the marker is ahead of the running schema
  layouts_disagree,    // §2.2 step 5a: same version, different stored layouts
  physical_mismatch,   // §2.2 step 5b: a required physical column is missing
  layouts_unreadable,  // the stored layouts are not JSON or not a JSON object
  not_append_only,     // §3 step 5: the bump is not an append-only evolution
  row_undecodable,     // §3 step 6: a stored payload does not decode under its layout
};
// Stable snake_case name of a reason, as ssp-storage reports it.
std::string_view refusal_reason_name(RefusalReason reason);

// ensure_schema refused. Nothing was changed: the whole startup transaction
// rolled back (the marker, app tables and rows are as they were).
class SchemaRefusal : public SspError {
 public:
  SchemaRefusal(RefusalReason reason, const std::string& message,
                std::optional<std::string> table = std::nullopt,
                std::optional<std::string> column = std::nullopt);
  RefusalReason reason() const { return reason_; }
  const std::optional<std::string>& table() const { return table_; }
  const std::optional<std::string>& column() const { return column_; }

 private:
  RefusalReason reason_;
  std::optional<std::string> table_;
  std::optional<std::string> column_;
};

// A row operation on a table the storage does not serve: ensure_schema has not
// succeeded, or the table is not in the schema it succeeded with.
class UnknownTable : public SspError {
 public:
  explicit UnknownTable(const std::string& table);
  const std::string& table() const { return table_; }

 private:
  std::string table_;
};

// ensure_server_ready failed (storage.md §6 B-10): code sync.schema_not_ready,
// the phase that failed, and the original error as cause.
class ServerNotReady : public SspError {
 public:
  ServerNotReady(std::int64_t version, std::string phase, std::exception_ptr cause);
  static constexpr std::string_view code() { return "sync.schema_not_ready"; }
  const std::string& phase() const { return phase_; }  // "schema_compile" | "storage_migration"
  const std::exception_ptr& cause() const { return cause_; }

 private:
  std::string phase_;
  std::exception_ptr cause_;
};

}  // namespace ssp::storage
