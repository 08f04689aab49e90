#include "storage_push_transaction.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "ssp/errors/errors.hpp"
#include "ssp/storage/push_result_json.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {

constexpr std::int64_t kMaxScanLimit = 1000;

std::optional<CheckedScan> check_scan(const RowScan& scan, const CompiledTable& table) {
  if (scan.scope_filter.empty()) {
    throw StorageQueryError("sync.storage.scan_requires_scope",
                            "scan_rows needs a non-empty scope filter");
  }
  if (scan.limit < 1 || scan.limit > kMaxScanLimit) {
    throw InvalidArgument("scan_rows limit " + std::to_string(scan.limit) +
                          " is outside 1..1000");
  }
  CheckedScan checked{&table, {}, scan.after_row_id, scan.limit};
  for (const auto& [variable, values] : scan.scope_filter) {
    if (values.empty()) return std::nullopt;  // a variable with no values matches nothing
    std::vector<std::string> distinct = values;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    checked.scope_filter.emplace(variable, std::move(distinct));
  }
  return checked;
}

std::vector<ChangeScope> change_scopes(const CommitEntry& entry) {
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::vector<ChangeScope> scopes;
  for (const Change& change : entry.changes) {
    for (const auto& [variable, value] : change.scopes) {
      if (seen.emplace(change.table, variable, value).second) {
        scopes.push_back({change.table, variable, value});
      }
    }
  }
  return scopes;
}

std::optional<push::StoredPushResult> stored_push_result(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return push::parse_push_result(*text);
}

SqlPushTransaction::SqlPushTransaction(std::string partition,
                                       std::shared_ptr<const CompiledSchema> served,
                                       std::unique_ptr<PushSession> session)
    : partition_(std::move(partition)), served_(std::move(served)), session_(std::move(session)) {}

SqlPushTransaction::~SqlPushTransaction() { rollback(); }

void SqlPushTransaction::require_open() const {
  if (finished_) throw InvalidArgument("transaction already finished");
}

const CompiledTable& SqlPushTransaction::served_table(const std::string& table) const {
  const CompiledTable* found = served_ ? served_->find(table) : nullptr;
  if (found == nullptr) throw UnknownTable(table);
  return *found;
}

void SqlPushTransaction::lock_partition_for_push() {
  require_open();
  if (locked_) throw InvalidArgument("the partition lock is already held by this transaction");
  session_->lock_partition(partition_);
  locked_ = true;
}

std::optional<push::StoredPushResult> SqlPushTransaction::get_push_result(
    const std::string& client_id, const std::string& client_commit_id) {
  require_open();
  return stored_push_result(session_->read_push_result(partition_, client_id, client_commit_id));
}

void SqlPushTransaction::prefetch_rows(const std::string& table,
                                       const std::vector<std::string>& row_ids) {
  require_open();
  const CompiledTable* served = served_ ? served_->find(table) : nullptr;
  if (!locked_ || served == nullptr) return;
  session_->prefetch_rows(*served, partition_, row_ids);
}

void SqlPushTransaction::stage_writes() {
  require_open();
  if (!locked_) throw InvalidArgument("staged writes need the partition lock");
  session_->stage_writes();
}

void SqlPushTransaction::flush_writes() {
  require_open();
  session_->flush_writes();
}

std::optional<StoredRow> SqlPushTransaction::get_row(const std::string& table,
                                                     const std::string& row_id) {
  require_open();
  return session_->read_row(served_table(table), partition_, row_id);
}

std::vector<StoredRow> SqlPushTransaction::scan_rows(const RowScan& scan) {
  require_open();
  const std::optional<CheckedScan> checked = check_scan(scan, served_table(scan.table));
  if (!checked) return {};
  return session_->scan_rows(partition_, *checked);
}

void SqlPushTransaction::upsert_row(const std::string& table, const StoredRow& row,
                                    std::int64_t op_index) {
  require_open();
  const CompiledTable& served = served_table(table);
  session_->write_row(served, partition_, row, decode_row(served.layout(), row.payload), op_index);
}

void SqlPushTransaction::upsert_decoded_row(const std::string& table, const StoredRow& row,
                                            const Row& values, std::int64_t op_index) {
  require_open();
  session_->write_row(served_table(table), partition_, row, values, op_index);
}

void SqlPushTransaction::delete_row(const std::string& table, const std::string& row_id) {
  require_open();
  session_->delete_row(served_table(table), partition_, row_id);
}

std::int64_t SqlPushTransaction::append_commit(const CommitEntry& entry) {
  require_open();
  const std::int64_t seq = session_->next_commit_seq(partition_);
  session_->write_commit(partition_, seq, entry, change_scopes(entry));
  return seq;
}

void SqlPushTransaction::put_push_result(const std::string& client_id,
                                         const std::string& client_commit_id,
                                         const push::StoredPushResult& result) {
  require_open();
  session_->insert_push_result(partition_, client_id, client_commit_id,
                               push::push_result_json(result));
}

void SqlPushTransaction::commit_rejected_push_result(const std::string& client_id,
                                                     const std::string& client_commit_id,
                                                     const push::StoredPushResult& result) {
  require_open();
  if (!locked_) throw InvalidArgument("push rejection requires its apply savepoint");
  const std::string json = push::push_result_json(result);
  try {
    session_->rollback_to_candidate();
    session_->insert_push_result(partition_, client_id, client_commit_id, json);
  } catch (...) {
    rollback();
    throw;
  }
  commit();
}

void SqlPushTransaction::commit() {
  require_open();
  finished_ = true;
  try {
    session_->commit();
  } catch (...) {
    session_->rollback();
    throw;
  }
}

void SqlPushTransaction::rollback() noexcept {
  if (finished_) return;
  finished_ = true;
  session_->rollback();
}

}  // namespace ssp::storage
