// storage.* (docs/driver-protocol.md, "storage") over the reference's server
// storage on SQLite and PostgreSQL.
#include <map>
#include <mutex>

#include "location.hpp"
#include "methods.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"
#include "ssp/storage/schema_compile.hpp"
#include "wire/partition_values.hpp"
#include "wire/push_values.hpp"
#include "wire/schema_json.hpp"
#include "wire/table_window_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

storage::ServerStorageOptions storage_options_from(const Fields& f) {
  storage::ServerStorageOptions options;
  const std::string compatibility = f.text("compatibility");
  if (compatibility == "0.21") {
    options.compatibility = storage::Compatibility::v0_21;
  } else if (compatibility != "0.22") {
    throw wire::WireError(f.path_of("compatibility") + ": not \"0.22\" or \"0.21\"");
  }
  options.lock_wait_ms = f.integer("lockWaitMs");
  if (f.boolean("hooks")) {
    options.ensure_hook = [](storage::EnsureHookPoint point) {
      current_call().callback("hook", {{"point", storage::ensure_hook_point_name(point)}});
    };
  }
  return options;
}

Json storage_open(const Fields& params) {
  const Location location = location_from_json(params.object("location"));
  const storage::ServerStorageOptions options = storage_options_from(params.object("options"));
  std::unique_ptr<storage::ServerStorage> opened;
  if (location.backend == "sqlite") {
    opened = storage::open_sqlite_server_storage(location.path, options);
  } else if (location.backend == "postgres") {
    opened = storage::open_postgres_server_storage(location.dsn, location.schema, options);
  } else {
    throw InvalidArgument("the reference has no server storage on the memory backend");
  }
  return Json{{"storage", server_storages().add(std::move(opened))}};
}

// The schema of each storage's last successful ensure_schema, by handle:
// push.run and command.run without a "schema" run under it (capability
// ensuredSchema), as a server pushes under the schema it brought its
// database to. Shared, so that a push takes it without a copy.
class SchemasInForce {
 public:
  void set(std::int64_t handle, storage::CompiledSchema schema) {
    auto shared = std::make_shared<const storage::CompiledSchema>(std::move(schema));
    std::lock_guard lock(mutex_);
    schemas_.insert_or_assign(handle, std::move(shared));
  }
  // Before any success, a schema with no table.
  std::shared_ptr<const storage::CompiledSchema> get(std::int64_t handle) const {
    static const auto kNoTable = std::make_shared<const storage::CompiledSchema>();
    std::lock_guard lock(mutex_);
    const auto found = schemas_.find(handle);
    return found == schemas_.end() ? kNoTable : found->second;
  }
  void remove(std::int64_t handle) {
    std::lock_guard lock(mutex_);
    schemas_.erase(handle);
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::int64_t, std::shared_ptr<const storage::CompiledSchema>> schemas_;
};

SchemasInForce& schemas_in_force() {
  static SchemasInForce schemas;
  return schemas;
}

Json storage_ensure_schema(const Fields& params) {
  storage::CompiledSchema schema = compiled_schema_of(params);
  const Json report =
      wire::schema_report_to_json(server_storage_of(params)->ensure_schema(schema));
  schemas_in_force().set(params.integer("storage"), std::move(schema));
  return report;
}

Json storage_preview_schema(const Fields& params) {
  return wire::schema_report_to_json(server_storage_of(params)->preview_schema(compiled_schema_of(params)));
}

Json storage_get_row(const Fields& params) {
  return wire::row_answer_to_json(server_storage_of(params)->get_row(
      params.text("partition"), params.text("table"), params.text("rowId")));
}

Json storage_upsert_row(const Fields& params) {
  server_storage_of(params)->upsert_row(params.text("partition"), params.text("table"),
                                 wire::stored_row_from_json(params.at("row"), params.path_of("row")));
  return Json::object();
}

Json storage_read_projection(const Fields& params) {
  const auto values = server_storage_of(params)->read_projection(
      params.text("partition"), params.text("table"), params.text("rowId"));
  return Json{{"values", values ? wire::row_to_json(*values) : Json()}};
}

Json storage_get_push_result(const Fields& params) {
  return wire::stored_result_answer_to_json(server_storage_of(params)->get_push_result(
      params.text("partition"), params.text("clientId"), params.text("clientCommitId")));
}

Json storage_get_max_commit_seq(const Fields& params) {
  return Json{{"commitSeq", server_storage_of(params)->get_max_commit_seq(params.text("partition"))}};
}

Json storage_read_commit_window(const Fields& params) {
  Json commits = Json::array();
  for (const auto& commit : server_storage_of(params)->read_commit_window(
           params.text("partition"), params.integer("afterSeq"), params.integer("limit"))) {
    commits.push_back(wire::commit_to_json(commit));
  }
  return Json{{"commits", std::move(commits)}};
}

Json storage_read_table_window(const Fields& params) {
  return wire::table_window_to_json(server_storage_of(params)->read_table_window(
      params.text("partition"), wire::table_window_query_from_fields(params)));
}

Json storage_touch_partition(const Fields& params) {
  return Json{{"entry", wire::partition_entry_to_json(server_storage_of(params)->touch_partition(
                            params.text("partition"), params.integer("authenticatedAtMs"),
                            params.text("initialLogEpoch")))}};
}

Json storage_rotate_partition_log_epoch(const Fields& params) {
  return Json{{"entry", wire::partition_entry_to_json(
                            server_storage_of(params)->rotate_partition_log_epoch(
                                params.text("partition"), params.text("logEpoch"),
                                params.integer("atMs")))}};
}

Json storage_get_partition_log_epoch(const Fields& params) {
  const auto epoch = server_storage_of(params)->get_partition_log_epoch(params.text("partition"));
  return Json{{"logEpoch", epoch ? Json(*epoch) : Json()}};
}

Json storage_list_partition_registry(const Fields& params) {
  return wire::partition_registry_to_json(server_storage_of(params)->list_partition_registry());
}

Json storage_query_authoritative(const Fields& params) {
  std::vector<std::string> row_ids;
  const Json& ids = params.array("rowIds");
  for (std::size_t i = 0; i < ids.size(); ++i) {
    row_ids.push_back(wire::text_value(ids[i], wire::element_path(params.path_of("rowIds"), i)));
  }
  const storage::AuthoritativeRead read = server_storage_of(params)->query_authoritative(
      params.text("partition"), params.text("table"), row_ids);
  return Json{{"rows", wire::stored_rows_to_json(read.rows)},
              {"maxCommitSeq", read.max_commit_seq}};
}

Json storage_close(const Fields& params) {
  const std::int64_t handle = params.integer("storage");
  close_transactions_of(handle);
  schemas_in_force().remove(handle);
  server_storages().remove(handle);
  return Json::object();
}

}  // namespace

Handles<storage::ServerStorage>& server_storages() {
  static Handles<storage::ServerStorage> open;
  return open;
}

std::shared_ptr<storage::ServerStorage> server_storage_of(const Fields& params) {
  return server_storages().get(params.integer("storage"));
}

storage::CompiledSchema compiled_schema_of(const Fields& params) {
  return storage::compile_schema(storage::parse_schema_value(params.at("schema")));
}

std::shared_ptr<const storage::CompiledSchema> push_schema_of(const Fields& params) {
  if (params.has("schema")) {
    return std::make_shared<const storage::CompiledSchema>(compiled_schema_of(params));
  }
  return schemas_in_force().get(params.integer("storage"));
}

void add_storage_methods(MethodTable& table) {
  table["storage.open"] = storage_open;
  table["storage.ensure_schema"] = storage_ensure_schema;
  table["storage.preview_schema"] = storage_preview_schema;
  table["storage.get_row"] = storage_get_row;
  table["storage.upsert_row"] = storage_upsert_row;
  table["storage.read_projection"] = storage_read_projection;
  table["storage.get_push_result"] = storage_get_push_result;
  table["storage.get_max_commit_seq"] = storage_get_max_commit_seq;
  table["storage.read_commit_window"] = storage_read_commit_window;
  table["storage.read_table_window"] = storage_read_table_window;
  table["storage.touch_partition"] = storage_touch_partition;
  table["storage.rotate_partition_log_epoch"] = storage_rotate_partition_log_epoch;
  table["storage.get_partition_log_epoch"] = storage_get_partition_log_epoch;
  table["storage.list_partition_registry"] = storage_list_partition_registry;
  table["storage.query_authoritative"] = storage_query_authoritative;
  table["storage.close"] = storage_close;
}

}  // namespace ssp::driver
