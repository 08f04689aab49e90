// The outcome of one push as the server stores it for idempotent replay
// (SSP2 §2.3, §6.3; design notes push.md §5, storage.md §4.2). The JSON text
// it is stored as is the reference's (ssp/storage/push_result_json.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/errors/errors.hpp"
#include "ssp/storage/row.hpp"

namespace ssp::push {

enum class OperationStatus { applied, conflict, error };

// One per-operation record (§6.3). An applied push has one `applied` record
// per operation; a rejected push exactly one, the terminating `conflict` or
// `error`.
struct OperationResult {
  std::int64_t op_index = 0;
  OperationStatus status = OperationStatus::applied;
  std::string code;     // conflict, error: a §10.2 code or a validator's own code
  std::string message;  // conflict, error
  // conflict: the stored row's version and payload (§6.2).
  std::optional<std::int64_t> server_version;
  std::optional<storage::Bytes> server_row;
  bool retryable = false;                   // error
  std::optional<std::string> details_json;  // error: a validator's details, JSON text
  friend bool operator==(const OperationResult&, const OperationResult&) = default;
};

enum class PushStatus { applied, rejected };

struct StoredPushResult {
  PushStatus status = PushStatus::applied;
  std::optional<std::int64_t> commit_seq;  // applied only
  std::optional<std::int64_t> recorded_at_ms;
  // A random id minted with the outcome: tells "the outcome I stored" from "a
  // racer's outcome" when a rejection finds a result already in place.
  std::optional<std::string> cache_identity;
  std::vector<OperationResult> results;
  friend bool operator==(const StoredPushResult&, const StoredPushResult&) = default;
};

// A stored result that cannot be read (§10.2 sync.idempotency_cache_miss,
// retryable): the push is answered as a cache miss, never re-applied.
class IdempotencyCacheMiss : public SspError {
 public:
  IdempotencyCacheMiss();  // message: "persisted push result unreadable (§6.3)"
  static constexpr std::string_view code() { return "sync.idempotency_cache_miss"; }
};

}  // namespace ssp::push
