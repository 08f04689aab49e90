// One operation of a push (design notes push.md §1.1 step 8): the checks,
// the §3.4 authorization, the §6.2 conflict check, the scope strip, the §6.7
// row validator and the staged write. Private to the push pipeline.
#pragma once

#include <cstdint>
#include <optional>

#include "ssp/push/push_pipeline.hpp"

namespace ssp::push {

// What one operation came to: either a terminating record (a conflict or an
// error; nothing of this operation is staged) or the staged write, with the
// change it emits (none for a delete of an absent row) and its evidence for
// the whole-commit validator.
struct OperationOutcome {
  std::optional<OperationResult> terminating;
  std::optional<storage::Change> change;
  OperationEvidence evidence;
};

// Applies `operation` (at `op_index` of its commit) through `tx`, which holds
// the partition lock. Decoded rows are only built when a validator will see
// them. Throws StorageConstraintError from the row write, and whatever the
// storage throws; a validator's throw is an answer, never thrown.
OperationOutcome apply_operation(storage::PushTransaction& tx,
                                 const storage::CompiledSchema& schema, const PushActor& actor,
                                 const PushOptions& options, const PushOperation& operation,
                                 std::int64_t op_index);

// An error record (§6.3) at `op_index`, not retryable.
OperationResult error_record(std::int64_t op_index, std::string code, std::string message,
                             std::optional<std::string> details_json = std::nullopt);

// The record of a deliberate host rejection (§6.7): its code, message and details.
OperationResult rejection_record(std::int64_t op_index, const ValidationRejection& rejection);

}  // namespace ssp::push
