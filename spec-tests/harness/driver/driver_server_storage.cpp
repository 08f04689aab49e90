#include "harness/driver/driver_server_storage.hpp"

#include <mutex>
#include <vector>

#include "harness/driver/driver_handle.hpp"
#include "harness/driver/driver_location.hpp"
#include "harness/driver/driver_push_transaction.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/errors/harness_error.hpp"
#include "wire/hook_points.hpp"
#include "wire/partition_values.hpp"
#include "wire/push_values.hpp"
#include "wire/table_window_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Json;

class DriverServerStorage final : public storage::ServerStorage {
 public:
  DriverServerStorage(const std::string& command, const DatabaseLocation& location,
                      storage::ServerStorageOptions options, bool schema_reports)
      : options_(std::move(options)),
        schema_reports_(schema_reports),
        handle_(std::make_shared<DriverHandle>(
            command, "storage", "storage",
            Json{{"location", location_to_json(location)},
                 {"options",
                  {{"compatibility",
                    options_.compatibility == storage::Compatibility::v0_21 ? "0.21" : "0.22"},
                   {"lockWaitMs", options_.lock_wait_ms},
                   {"hooks", static_cast<bool>(options_.ensure_hook)}}}})) {}

  // The handle push.run is sent with (driver_push_area.cpp).
  DriverHandle& handle() { return *handle_; }

  storage::SchemaReport ensure_schema(const storage::CompiledSchema& schema) override {
    storage::SchemaReport report = startup("ensure_schema", schema);
    auto in_force = std::make_shared<const storage::CompiledSchema>(schema);
    std::lock_guard lock(in_force_mutex_);
    in_force_ = std::move(in_force);
    return report;
  }

  std::shared_ptr<const storage::CompiledSchema> schema_in_force() const {
    std::lock_guard lock(in_force_mutex_);
    return in_force_;
  }

  storage::SchemaReport preview_schema(const storage::CompiledSchema& schema) override {
    if (!schema_reports_) {
      throw HarnessError(handle_->method("preview_schema") +
                         ": the driver declares no schema reports (hello \"schemaReport\": "
                         "false), and the test did not skip at its schema_reports gate");
    }
    return startup("preview_schema", schema);
  }

  std::optional<storage::StoredRow> get_row(const std::string& partition, const std::string& table,
                                            const std::string& row_id) override {
    const Json result = handle_->call("get_row", row_key(partition, table, row_id));
    return decode_answer(handle_->method("get_row"),
                         [&] { return wire::row_answer_from_json(result, "result"); });
  }

  void upsert_row(const std::string& partition, const std::string& table,
                  const storage::StoredRow& row) override {
    handle_->call("upsert_row", {{"partition", partition},
                                {"table", table},
                                {"row", wire::stored_row_to_json(row)}});
  }

  std::optional<storage::Row> read_projection(const std::string& partition,
                                              const std::string& table,
                                              const std::string& row_id) override {
    const Json result = handle_->call("read_projection", row_key(partition, table, row_id));
    return decode_answer(handle_->method("read_projection"), [&]() -> std::optional<storage::Row> {
      const Json& values = wire::Fields(result, "result").at("values");
      if (values.is_null()) return std::nullopt;
      return wire::row_from_json(values, "result.values");
    });
  }

  // Version 2 (capabilities transactions and push); tests reach these only
  // past their capability gates.
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return begin_driver_push_transaction(handle_, partition);
  }

  std::optional<push::StoredPushResult> get_push_result(
      const std::string& partition, const std::string& client_id,
      const std::string& client_commit_id) override {
    const Json result = handle_->call("get_push_result", {{"partition", partition},
                                                          {"clientId", client_id},
                                                          {"clientCommitId", client_commit_id}});
    return decode_answer(handle_->method("get_push_result"),
                         [&] { return wire::stored_result_answer_from_json(result, "result"); });
  }

  std::int64_t get_max_commit_seq(const std::string& partition) override {
    const Json result = handle_->call("get_max_commit_seq", {{"partition", partition}});
    return decode_answer(handle_->method("get_max_commit_seq"),
                         [&] { return wire::Fields(result, "result").integer("commitSeq"); });
  }

  std::vector<storage::Commit> read_commit_window(const std::string& partition,
                                                  std::int64_t after_seq,
                                                  std::int64_t limit) override {
    const Json result = handle_->call(
        "read_commit_window", {{"partition", partition}, {"afterSeq", after_seq}, {"limit", limit}});
    return decode_answer(handle_->method("read_commit_window"), [&] {
      const Json& commits = wire::Fields(result, "result").at("commits");
      std::vector<storage::Commit> out;
      for (std::size_t i = 0; i < wire::array_value(commits, "result.commits").size(); ++i) {
        out.push_back(
            wire::commit_from_json(commits[i], wire::element_path("result.commits", i)));
      }
      return out;
    });
  }

  // storage.read_table_window (version 3): the caller checked the driver
  // advertised tableWindow (the table_window capability gate).
  std::vector<storage::WindowCommit> read_table_window(
      const std::string& partition, const storage::TableWindowQuery& query) override {
    Json params = wire::table_window_query_to_json(query);
    params["partition"] = partition;
    const Json result = handle_->call("read_table_window", std::move(params));
    return decode_answer(handle_->method("read_table_window"),
                         [&] { return wire::table_window_from_json(result, "result"); });
  }

  // The partition registry (version 3): the caller checked the driver
  // advertised partitionRegistry (the partition_registry capability gate).
  storage::PartitionEntry touch_partition(const std::string& partition,
                                          std::int64_t authenticated_at_ms,
                                          const std::string& initial_log_epoch) override {
    return registry_entry("touch_partition", {{"partition", partition},
                                              {"authenticatedAtMs", authenticated_at_ms},
                                              {"initialLogEpoch", initial_log_epoch}});
  }
  storage::PartitionEntry rotate_partition_log_epoch(const std::string& partition,
                                                     const std::string& log_epoch,
                                                     std::int64_t at_ms) override {
    return registry_entry("rotate_partition_log_epoch",
                          {{"partition", partition}, {"logEpoch", log_epoch}, {"atMs", at_ms}});
  }
  std::optional<std::string> get_partition_log_epoch(const std::string& partition) override {
    const Json result = handle_->call("get_partition_log_epoch", {{"partition", partition}});
    return decode_answer(handle_->method("get_partition_log_epoch"), [&] {
      return wire::Fields(result, "result").nullable_text("logEpoch");
    });
  }
  std::vector<storage::PartitionEntry> list_partition_registry() override {
    const Json result = handle_->call("list_partition_registry", Json::object());
    return decode_answer(handle_->method("list_partition_registry"),
                         [&] { return wire::partition_registry_from_json(result, "result"); });
  }

  storage::AuthoritativeRead query_authoritative(
      const std::string& partition, const std::string& table,
      const std::vector<std::string>& row_ids) override {
    const Json result = handle_->call("query_authoritative",
                                      {{"partition", partition}, {"table", table}, {"rowIds", row_ids}});
    return decode_answer(handle_->method("query_authoritative"), [&] {
      const wire::Fields fields(result, "result");
      return storage::AuthoritativeRead{
          wire::stored_rows_from_json(fields.at("rows"), "result.rows"),
          fields.integer("maxCommitSeq")};
    });
  }

 private:
  // `verb`'s {"entry"} answer.
  storage::PartitionEntry registry_entry(const std::string& verb, Json params) {
    const Json result = handle_->call(verb, std::move(params));
    return decode_answer(handle_->method(verb), [&] {
      return wire::partition_entry_from_json(wire::Fields(result, "result").at("entry"),
                                             "result.entry");
    });
  }

  static Json row_key(const std::string& partition, const std::string& table,
                      const std::string& row_id) {
    return {{"partition", partition}, {"table", table}, {"rowId", row_id}};
  }

  storage::SchemaReport startup(const std::string& verb, const storage::CompiledSchema& schema) {
    const std::string method = handle_->method(verb);
    std::vector<storage::EnsureHookPoint> passed;
    const auto on_callback = [&](const std::string& name, const wire::Fields& params) -> Json {
      if (name != "hook" || !options_.ensure_hook) {
        throw DriverError(method, "protocol violation: a " + name +
                                      " callback the storage was not opened with");
      }
      const auto point = wire::ensure_hook_point_from_name(params.text("point"));
      if (!point) throw wire::WireError(params.path_of("point") + ": not an ensure hook point");
      if (!passed.empty() && *point <= passed.back()) {
        throw DriverError(method, "protocol violation: hook point " + params.text("point") +
                                      " after " +
                                      std::string(storage::ensure_hook_point_name(passed.back())));
      }
      passed.push_back(*point);
      options_.ensure_hook(*point);
      return Json::object();
    };
    const Json result =
        handle_->call(verb, {{"schema", wire::compiled_schema_to_json(schema)}}, on_callback);
    if (!schema_reports_) {
      // The answer says only that the schema is in force; a memo passes no
      // hook point and a real startup all three, and nothing tells them apart.
      if (options_.ensure_hook && passed.size() != 0 && passed.size() != 3) {
        throw DriverError(method, "protocol violation: a " + verb + " that succeeded passed " +
                                      std::to_string(passed.size()) + " hook points, not 0 or 3");
      }
      storage::SchemaReport unreported;
      unreported.action = storage::SchemaReport::Action::unreported;
      unreported.configured_version = schema.version;
      return unreported;
    }
    const storage::SchemaReport report =
        decode_answer(method, [&] { return wire::schema_report_from_json(result, "result"); });
    // A memoized answer reads nothing; any other success ran the whole sequence.
    const std::size_t expected = report.action == storage::SchemaReport::Action::memoized ? 0 : 3;
    if (options_.ensure_hook && passed.size() != expected) {
      throw DriverError(method, "protocol violation: a " + verb + " that succeeded (" +
                                    wire::dump_line(result.at("action")) + ") passed " +
                                    std::to_string(passed.size()) + " hook points, not " +
                                    std::to_string(expected));
    }
    return report;
  }

  const storage::ServerStorageOptions options_;
  const bool schema_reports_;  // the driver's hello "schemaReport"
  // Shared with the transactions it began (driver_push_transaction.hpp).
  const std::shared_ptr<DriverHandle> handle_;
  // The schema of the last ensure_schema the driver answered with success,
  // shared so that every push checks against it without a copy.
  mutable std::mutex in_force_mutex_;
  std::shared_ptr<const storage::CompiledSchema> in_force_;
};

}  // namespace

DriverHandle* driver_storage_handle(storage::ServerStorage& storage) {
  auto* ours = dynamic_cast<DriverServerStorage*>(&storage);
  return ours != nullptr ? &ours->handle() : nullptr;
}

std::shared_ptr<const storage::CompiledSchema> driver_storage_schema_in_force(
    storage::ServerStorage& storage) {
  auto* ours = dynamic_cast<DriverServerStorage*>(&storage);
  return ours != nullptr ? ours->schema_in_force() : nullptr;
}

std::unique_ptr<storage::ServerStorage> open_driver_server_storage(
    const std::string& command, const DatabaseLocation& location,
    const storage::ServerStorageOptions& options, bool schema_reports) {
  return std::make_unique<DriverServerStorage>(command, location, options, schema_reports);
}

}  // namespace ssp::harness
