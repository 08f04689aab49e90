// storage.begin and tx.* (docs/driver-protocol.md, "transactions"): the raw
// push transaction, one statement per request. Each request runs on a thread
// of its own (connection.hpp), so a step that waits on a database lock holds
// only its own thread while the process serves the others.
#include <map>
#include <mutex>

#include "methods.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

// The open transactions by handle, each with the storage that began it, so
// storage.close can end them.
class Transactions {
 public:
  std::int64_t add(std::int64_t storage, std::unique_ptr<storage::PushTransaction> tx) {
    std::lock_guard lock(mutex_);
    open_.emplace(++last_, Entry{storage, std::move(tx)});
    return last_;
  }
  std::shared_ptr<storage::PushTransaction> get(std::int64_t handle) const {
    std::lock_guard lock(mutex_);
    const auto found = open_.find(handle);
    if (found == open_.end()) throw_unknown_handle(handle);
    return found->second.tx;
  }
  // Forgets the handle; the transaction rolls back once no step still uses it.
  void remove(std::int64_t handle) {
    std::lock_guard lock(mutex_);
    open_.erase(handle);
  }
  void remove_all_of(std::int64_t storage) {
    std::lock_guard lock(mutex_);
    std::erase_if(open_, [&](const auto& entry) { return entry.second.storage == storage; });
  }

 private:
  struct Entry {
    std::int64_t storage;
    std::shared_ptr<storage::PushTransaction> tx;
  };
  mutable std::mutex mutex_;
  std::map<std::int64_t, Entry> open_;
  std::int64_t last_ = 0;
};

Transactions& transactions() {
  static Transactions open;
  return open;
}

std::shared_ptr<storage::PushTransaction> tx_of(const Fields& params) {
  return transactions().get(params.integer("transaction"));
}

Json storage_begin(const Fields& params) {
  const std::int64_t storage = params.integer("storage");
  auto tx = server_storage_of(params)->begin(params.text("partition"));
  return Json{{"transaction", transactions().add(storage, std::move(tx))}};
}

Json tx_lock_partition_for_push(const Fields& params) {
  tx_of(params)->lock_partition_for_push();
  return Json::object();
}

Json tx_get_push_result(const Fields& params) {
  return wire::stored_result_answer_to_json(
      tx_of(params)->get_push_result(params.text("clientId"), params.text("clientCommitId")));
}

Json tx_read_row(const Fields& params) {
  return wire::row_answer_to_json(
      tx_of(params)->get_row(params.text("table"), params.text("rowId")));
}

Json tx_scan_rows(const Fields& params) {
  return Json{{"rows", wire::stored_rows_to_json(
                          tx_of(params)->scan_rows(wire::row_scan_from_fields(params)))}};
}

Json tx_upsert_row(const Fields& params) {
  tx_of(params)->upsert_row(params.text("table"),
                            wire::stored_row_from_json(params.at("row"), params.path_of("row")),
                            params.integer("opIndex"));
  return Json::object();
}

Json tx_delete_row(const Fields& params) {
  tx_of(params)->delete_row(params.text("table"), params.text("rowId"));
  return Json::object();
}

Json tx_append_commit(const Fields& params) {
  return Json{{"commitSeq", tx_of(params)->append_commit(wire::commit_entry_from_json(
                                params.at("entry"), params.path_of("entry")))}};
}

push::StoredPushResult result_of(const Fields& params) {
  return wire::stored_push_result_from_json(params.at("result"), params.path_of("result"));
}

Json tx_put_push_result(const Fields& params) {
  tx_of(params)->put_push_result(params.text("clientId"), params.text("clientCommitId"),
                                 result_of(params));
  return Json::object();
}

Json tx_commit_rejected_push_result(const Fields& params) {
  tx_of(params)->commit_rejected_push_result(params.text("clientId"),
                                             params.text("clientCommitId"), result_of(params));
  return Json::object();
}

Json tx_commit(const Fields& params) {
  tx_of(params)->commit();
  return Json::object();
}

Json tx_rollback(const Fields& params) {
  tx_of(params)->rollback();
  return Json::object();
}

Json tx_close(const Fields& params) {
  const auto tx = tx_of(params);
  transactions().remove(params.integer("transaction"));
  tx->rollback();
  return Json::object();
}

}  // namespace

void close_transactions_of(std::int64_t storage_handle) {
  transactions().remove_all_of(storage_handle);
}

void add_transaction_methods(MethodTable& table) {
  table["storage.begin"] = storage_begin;
  table["tx.lock_partition_for_push"] = tx_lock_partition_for_push;
  table["tx.get_push_result"] = tx_get_push_result;
  table["tx.read_row"] = tx_read_row;
  table["tx.scan_rows"] = tx_scan_rows;
  table["tx.upsert_row"] = tx_upsert_row;
  table["tx.delete_row"] = tx_delete_row;
  table["tx.append_commit"] = tx_append_commit;
  table["tx.put_push_result"] = tx_put_push_result;
  table["tx.commit_rejected_push_result"] = tx_commit_rejected_push_result;
  table["tx.commit"] = tx_commit;
  table["tx.rollback"] = tx_rollback;
  table["tx.close"] = tx_close;
}

}  // namespace ssp::driver
