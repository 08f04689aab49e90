#include "harness/driver/driver_push_transaction.hpp"

#include <gtest/gtest.h>

#include "harness/errors/driver_error.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Json;

class DriverPushTransaction final : public storage::PushTransaction {
 public:
  DriverPushTransaction(std::shared_ptr<DriverHandle> storage, std::string partition)
      : storage_(std::move(storage)), partition_(std::move(partition)) {
    const Json result = storage_->call("begin", {{"partition", partition_}});
    handle_ = decode_answer("storage.begin",
                            [&] { return wire::Fields(result, "result").at("transaction"); });
  }

  ~DriverPushTransaction() override {
    if (storage_->process().healthy()) step_without_throwing("close");
  }

  const std::string& partition() const override { return partition_; }

  void lock_partition_for_push() override { step("lock_partition_for_push"); }

  std::optional<push::StoredPushResult> get_push_result(
      const std::string& client_id, const std::string& client_commit_id) override {
    const Json result =
        step("get_push_result", {{"clientId", client_id}, {"clientCommitId", client_commit_id}});
    return decode("get_push_result",
                  [&] { return wire::stored_result_answer_from_json(result, "result"); });
  }

  std::optional<storage::StoredRow> get_row(const std::string& table,
                                            const std::string& row_id) override {
    const Json result = step("read_row", {{"table", table}, {"rowId", row_id}});
    return decode("read_row", [&] { return wire::row_answer_from_json(result, "result"); });
  }

  std::vector<storage::StoredRow> scan_rows(const storage::RowScan& scan) override {
    const Json result = step("scan_rows", wire::row_scan_to_json(scan));
    return decode("scan_rows", [&] {
      return wire::stored_rows_from_json(wire::Fields(result, "result").at("rows"),
                                         "result.rows");
    });
  }

  void upsert_row(const std::string& table, const storage::StoredRow& row,
                  std::int64_t op_index) override {
    step("upsert_row",
         {{"table", table}, {"row", wire::stored_row_to_json(row)}, {"opIndex", op_index}});
  }

  void delete_row(const std::string& table, const std::string& row_id) override {
    step("delete_row", {{"table", table}, {"rowId", row_id}});
  }

  std::int64_t append_commit(const storage::CommitEntry& entry) override {
    const Json result = step("append_commit", {{"entry", wire::commit_entry_to_json(entry)}});
    return decode("append_commit",
                  [&] { return wire::Fields(result, "result").integer("commitSeq"); });
  }

  void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                       const push::StoredPushResult& result) override {
    step("put_push_result", result_params(client_id, client_commit_id, result));
  }

  void commit_rejected_push_result(const std::string& client_id,
                                   const std::string& client_commit_id,
                                   const push::StoredPushResult& result) override {
    step("commit_rejected_push_result", result_params(client_id, client_commit_id, result));
  }

  void commit() override { step("commit"); }

  void rollback() noexcept override { step_without_throwing("rollback"); }

 private:
  static Json result_params(const std::string& client_id, const std::string& client_commit_id,
                            const push::StoredPushResult& result) {
    return {{"clientId", client_id},
            {"clientCommitId", client_commit_id},
            {"result", wire::stored_push_result_to_json(result)}};
  }

  Json step(const std::string& verb, Json params = Json::object()) {
    params["transaction"] = handle_;
    return storage_->process().call("tx." + verb, std::move(params));
  }

  template <class Decode>
  static auto decode(const std::string& verb, Decode&& read) -> decltype(read()) {
    return decode_answer("tx." + verb, std::forward<Decode>(read));
  }

  // A step whose caller must not throw (a destructor, rollback): its
  // failure fails the running test instead, naming the step.
  void step_without_throwing(const std::string& verb) noexcept {
    try {
      step(verb);
    } catch (const std::exception& error) {
      if (::testing::UnitTest::GetInstance()->current_test_info() == nullptr) return;
      ADD_FAILURE() << (reports_driver_error(error.what())
                            ? std::string(error.what())
                            : DriverError("tx." + verb, error.what()).what());
    }
  }

  std::shared_ptr<DriverHandle> storage_;
  std::string partition_;
  Json handle_;
};

}  // namespace

std::unique_ptr<storage::PushTransaction> begin_driver_push_transaction(
    std::shared_ptr<DriverHandle> storage, const std::string& partition) {
  return std::make_unique<DriverPushTransaction>(std::move(storage), partition);
}

}  // namespace ssp::harness
