// What every SQL ServerStorage shares, written once: the memo, the served
// table map, the unknown-table refusal, the hook points, payload validation
// before a write. A backend supplies the session and the single-row SQL.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ssp/storage/schema_startup.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::storage {

class ServerStorageBase : public ServerStorage {
 public:
  explicit ServerStorageBase(ServerStorageOptions options) : options_(std::move(options)) {}

  SchemaReport ensure_schema(const CompiledSchema& schema) final;
  SchemaReport preview_schema(const CompiledSchema& schema) final;
  std::optional<StoredRow> get_row(const std::string& partition, const std::string& table,
                                   const std::string& row_id) final;
  void upsert_row(const std::string& partition, const std::string& table,
                  const StoredRow& row) final;
  std::optional<Row> read_projection(const std::string& partition, const std::string& table,
                                     const std::string& row_id) final;

 protected:
  const ServerStorageOptions& options() const { return options_; }

  // Opens a transaction holding the migration lock (see SchemaSession).
  virtual std::unique_ptr<SchemaSession> begin_schema_session() = 0;
  virtual std::optional<StoredRow> read_row(const CompiledTable& table,
                                            const std::string& partition,
                                            const std::string& row_id) = 0;
  // One transaction: the row with its projection (`values`, the decoded
  // payload) and its sync_row_scopes entries replaced.
  virtual void write_row(const CompiledTable& table, const std::string& partition,
                         const StoredRow& row, const Row& values) = 0;
  virtual std::optional<Row> read_projection_row(const CompiledTable& table,
                                                 const std::string& partition,
                                                 const std::string& row_id) = 0;

 private:
  SchemaReport run_startup(const CompiledSchema& schema, bool commit);
  const CompiledTable& served_table(const std::string& table) const;
  void hook(EnsureHookPoint point) const;

  std::mutex mutex_;  // one connection: every call runs alone
  ServerStorageOptions options_;
  std::optional<CompiledSchema> served_;  // the schema of the last success
  std::string served_layouts_;            // its layouts_json, the memo key with its version
};

}  // namespace ssp::storage
