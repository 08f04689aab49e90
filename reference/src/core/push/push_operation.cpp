// One push operation, push.md §1.1 step 8 without the CRDT merge and the
// blob check (docs/decisions.md, "Push pipeline": where they would go).
#include "push_operation.hpp"

#include <exception>
#include <utility>

#include "push_authorization.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/row_codec.hpp"

namespace ssp::push {

OperationResult error_record(std::int64_t op_index, std::string code, std::string message,
                             std::optional<std::string> details_json) {
  OperationResult record;
  record.op_index = op_index;
  record.status = OperationStatus::error;
  record.code = std::move(code);
  record.message = std::move(message);
  record.retryable = false;
  record.details_json = std::move(details_json);
  return record;
}

OperationResult rejection_record(std::int64_t op_index, const ValidationRejection& rejection) {
  return error_record(op_index, rejection.code(), rejection.what(), rejection.details_json());
}

namespace {

using storage::Bytes;
using storage::ChangeOp;
using storage::CompiledTable;
using storage::Row;
using storage::StoredRow;

constexpr std::string_view kForbidden = "sync.forbidden";
constexpr std::string_view kInvalidRequest = "sync.invalid_request";

OperationResult conflict_record(std::int64_t op_index, const StoredRow& stored) {
  OperationResult record;
  record.op_index = op_index;
  record.status = OperationStatus::conflict;
  record.code = "sync.version_conflict";
  record.message = "row version does not match baseVersion (§6.2)";
  record.server_version = stored.server_version;
  record.server_row = stored.payload;
  return record;
}

// §2.2: the primary key rendered as a string (strings as they are, integers
// in decimal); nothing for any other value.
std::optional<std::string> rendered_key(const storage::RowValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  return std::nullopt;
}

// The per-operation state the steps below share.
class OperationRun {
 public:
  OperationRun(storage::PushTransaction& tx, const CompiledTable& table, const PushActor& actor,
               const PushOptions& options, const PushOperation& operation, std::int64_t op_index)
      : tx_(tx),
        table_(table),
        actor_(actor),
        operation_(operation),
        op_index_(op_index),
        validator_(find_validator(options, table.name())),
        needs_rows_(validator_ != nullptr || static_cast<bool>(options.commit_validator)) {
    outcome_.evidence.op_index = op_index;
    outcome_.evidence.op = operation.op;
    outcome_.evidence.table = operation.table;
    outcome_.evidence.row_id = operation.row_id;
  }

  OperationOutcome run() {
    const auto stored = tx_.get_row(table_.name(), operation_.row_id);
    if (operation_.op == OperationKind::remove) {
      remove(stored);
    } else {
      upsert(stored);
    }
    return std::move(outcome_);
  }

 private:
  static const RowValidator* find_validator(const PushOptions& options, const std::string& table) {
    const auto found = options.row_validators.find(table);
    if (found == options.row_validators.end() || !found->second) return nullptr;
    return &found->second;
  }

  void terminate(OperationResult record) { outcome_.terminating = std::move(record); }
  void error(std::string_view code, std::string message) {
    terminate(error_record(op_index_, std::string(code), std::move(message)));
  }

  Row decode(const Bytes& payload) const {
    const auto layout = table_.layout();
    return storage::decode_row(layout, payload);
  }

  // §3.4 steps 2–3 on a stored row: every value it has must be allowed, and
  // a declared variable it has no value for denies (step 2), whatever the
  // actor is allowed; either is `sync.forbidden` (step 4).
  bool authorize_stored(const StoredRow& stored, std::string_view denial) {
    if (!scopes_authorized(table_, stored.scopes, *actor_.allowed_scopes) ||
        first_missing_variable(table_, stored.scopes)) {
      error(kForbidden, std::string(denial));
      return false;
    }
    return true;
  }

  // §6.7: accepts, or turns the validator's throw into the terminating record.
  bool validate(std::optional<Row> row, std::optional<Row> stored) {
    if (validator_ == nullptr) return true;
    RowValidation validation{operation_.op, operation_.table, operation_.row_id, std::move(row),
                             std::move(stored), actor_.actor_id, actor_.partition};
    try {
      (*validator_)(validation);
      return true;
    } catch (const PushAbandoned&) {
      throw;
    } catch (const ValidationRejection& rejection) {
      terminate(rejection_record(op_index_, rejection));
    } catch (const std::exception& thrown) {
      error("sync.constraint_violation",
            "write validator for table \"" + table_.name() + "\" threw: " + thrown.what());
    } catch (...) {
      error("sync.constraint_violation",
            "write validator for table \"" + table_.name() + "\" threw: unknown exception");
    }
    return false;
  }

  void remove(const std::optional<StoredRow>& stored) {
    // §6.2: an absent row is applied with no authorization, no validator and
    // no change; it is still evidence for §6.8.
    if (!stored) return;
    if (!authorize_stored(*stored, "delete denied by scope authorization (§3.4)")) return;
    std::optional<Row> stored_row;
    if (needs_rows_) stored_row = decode(stored->payload);
    if (!validate(std::nullopt, stored_row)) return;
    tx_.delete_row(table_.name(), operation_.row_id);
    outcome_.change = storage::Change{operation_.table, operation_.row_id, ChangeOp::remove,
                                      std::nullopt,     stored->scopes,    std::nullopt};
    outcome_.evidence.stored = std::move(stored_row);
    outcome_.evidence.stored_server_version = stored->server_version;
  }

  void upsert(const std::optional<StoredRow>& stored) {
    if (!operation_.payload) {
      error(kInvalidRequest, "upsert without a payload (§6.1)");
      return;
    }
    Row row;
    try {
      row = decode(*operation_.payload);
    } catch (const storage::RowDecodeError& failure) {
      error(kInvalidRequest,
            std::string("row payload failed row-codec decode (§1.7): ") + failure.what());
      return;
    }
    const auto key_index = table_.column_position(table_.declared.primary_key);
    const auto key = key_index ? rendered_key(row.at(*key_index)) : std::nullopt;
    if (!key || *key != operation_.row_id) {
      error(kInvalidRequest, "primary key \"" + table_.declared.primary_key +
                                 "\" of the payload does not match rowId \"" +
                                 operation_.row_id + "\" (§2.2)");
      return;
    }
    if (stored) {
      update(*stored, std::move(row));
    } else {
      insert(std::move(row));
    }
  }

  void update(const StoredRow& stored, Row row) {
    if (!authorize_stored(stored, "write denied by scope authorization (§3.4)")) return;
    const auto base = operation_.base_version;
    if (base && (*base == 0 || *base != stored.server_version)) {
      terminate(conflict_record(op_index_, stored));
      return;
    }
    // §3.4 rule 5: the stored scope values replace whatever the payload says.
    const Row stored_row = decode(stored.payload);
    bool stripped = false;
    for (const auto& binding : table_.scopes) {
      const auto index = table_.column_position(binding.column);
      if (!index || row.at(*index) == stored_row.at(*index)) continue;
      row[*index] = stored_row[*index];
      stripped = true;
    }
    Bytes payload = *operation_.payload;
    if (stripped) {
      const auto layout = table_.layout();
      payload = storage::encode_row(layout, row);
    }
    const std::int64_t next_version = stored.server_version + 1;
    if (!validate(row, stored_row)) return;
    tx_.upsert_decoded_row(table_.name(),
                           StoredRow{operation_.row_id, next_version, stored.scopes, payload},
                           row, op_index_);
    outcome_.change = storage::Change{operation_.table, operation_.row_id, ChangeOp::upsert,
                                      next_version,     stored.scopes,     std::move(payload)};
    if (needs_rows_) {
      outcome_.evidence.row = std::move(row);
      outcome_.evidence.stored = stored_row;
    }
    outcome_.evidence.stored_server_version = stored.server_version;
    outcome_.evidence.next_server_version = next_version;
  }

  void insert(Row row) {
    const auto scopes = extract_scopes(table_, row);
    const auto& allowed = *actor_.allowed_scopes;
    const auto base = operation_.base_version;
    if (base && *base != 0) {
      // §6.2: row_missing only to an actor who may write the payload's scopes.
      if (!scopes || !scopes_authorized(table_, *scopes, allowed)) {
        error(kForbidden, "write denied by scope authorization (§3.4)");
      } else {
        error("sync.row_missing", "row does not exist for baseVersion " +
                                      std::to_string(*base) + " (§6.2)");
      }
      return;
    }
    if (!scopes) {
      error(kForbidden, "insert denied: a scope column is missing or empty (§3.4 step 2)");
      return;
    }
    if (!scopes_authorized(table_, *scopes, allowed)) {
      error(kForbidden, "write denied by scope authorization (§3.4)");
      return;
    }
    if (!validate(row, std::nullopt)) return;
    tx_.upsert_decoded_row(table_.name(),
                           StoredRow{operation_.row_id, 1, *scopes, *operation_.payload}, row,
                           op_index_);
    outcome_.change = storage::Change{operation_.table, operation_.row_id, ChangeOp::upsert,
                                      1,                *scopes,           *operation_.payload};
    if (needs_rows_) outcome_.evidence.row = std::move(row);
    outcome_.evidence.next_server_version = 1;
  }

  storage::PushTransaction& tx_;
  const CompiledTable& table_;
  const PushActor& actor_;
  const PushOperation& operation_;
  std::int64_t op_index_;
  const RowValidator* validator_;
  bool needs_rows_;
  OperationOutcome outcome_;
};

}  // namespace

OperationOutcome apply_operation(storage::PushTransaction& tx,
                                 const storage::CompiledSchema& schema, const PushActor& actor,
                                 const PushOptions& options, const PushOperation& operation,
                                 std::int64_t op_index) {
  OperationOutcome outcome;
  const CompiledTable* table = schema.find(operation.table);
  if (table == nullptr) {
    outcome.terminating = error_record(op_index, "sync.unknown_table",
                                       "unknown table \"" + operation.table + "\"");
    return outcome;
  }
  if (!actor.allowed_scopes) {
    outcome.terminating =
        error_record(op_index, "sync.forbidden", "scope resolution failed (§3.4 step 4)");
    return outcome;
  }
  return OperationRun(tx, *table, actor, options, operation, op_index).run();
}

}  // namespace ssp::push
