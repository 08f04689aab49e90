// The server storage on SQLite. Only SQL lives here: the startup sequence, the
// memo and the row checks are ServerStorageBase and run_schema_startup.
#include "../sql/idle_connections.hpp"
#include "core/storage/core_tables_seen.hpp"
#include "core/storage/storage_server_base.hpp"
#include "sqlite_connection.hpp"
#include "sqlite_push_session.hpp"
#include "sqlite_row_statements.hpp"
#include "sqlite_schema_session.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/schema_startup.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::storage {
namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

// The sync_changes columns tbl, row_id, op, row_version, scopes, payload of
// `read`'s current row, from column `first` on.
Change change_at(ValueStatement& read, int first) {
  Change change;
  change.table = std::get<std::string>(read.read(first, ColumnType::string));
  change.row_id = std::get<std::string>(read.read(first + 1, ColumnType::string));
  change.op = std::get<std::int64_t>(read.read(first + 2, ColumnType::integer)) == 2
                  ? ChangeOp::remove
                  : ChangeOp::upsert;
  const RowValue version = read.read(first + 3, ColumnType::integer);
  if (const auto* v = std::get_if<std::int64_t>(&version)) change.row_version = *v;
  change.scopes = parse_scopes_json(
      std::get<std::string>(read.read(first + 4, ColumnType::string)), change.table);
  RowValue payload = read.read(first + 5, ColumnType::bytes);
  if (auto* bytes = std::get_if<Bytes>(&payload)) change.payload = std::move(*bytes);
  return change;
}

class SqliteServerStorage final : public ServerStorageBase {
 public:
  SqliteServerStorage(const std::string& path, ServerStorageOptions options,
                      SqliteServerStorageOptions sqlite_options)
      : ServerStorageBase(std::move(options)),
        path_(path),
        durability_pragmas_(sqlite_durability_pragmas(sqlite_options.durability)),
        writer_(path, false, this->options().lock_wait_ms),
        reader_(path, false, this->options().lock_wait_ms) {
    // WAL: readers see the last committed state while a push holds the
    // writer lock (design notes push.md Q5); persistent in the file. The
    // synchronous level is per connection: every writing one sets it.
    writer_.exec(durability_pragmas_);
  }

 protected:
  std::unique_ptr<SchemaSession> begin_schema_session() override {
    return begin_sqlite_schema_session(writer_);
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values) override {
    Transaction transaction(writer_, Transaction::Kind::write);
    if (!write_row_on(writer_, table, row_sql(table), partition, row, values)) {
      throw StorageError("SqliteServerStorage: application row violates a relational constraint");
    }
    transaction.commit();
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return read_row_on(reader_, table, row_sql(table), partition, row_id);
  }

  std::optional<Row> read_projection_row(const CompiledTable& table, const std::string& partition,
                                         const std::string& row_id) override {
    std::vector<std::string> names;
    for (const Column& column : table.columns()) names.push_back(column.name);
    ValueStatement read(reader_, "SELECT " + comma_separated(names) + " FROM " +
                                     quote_identifier(table.name()) + where_row());
    read.bind(1, partition);
    read.bind(2, row_id);
    if (!read.step()) return std::nullopt;
    Row values;
    for (std::size_t i = 0; i < table.columns().size(); ++i) {
      values.push_back(read.read(static_cast<int>(i), table.columns()[i].type));
    }
    return values;
  }

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    if (!core_tables_exist()) return std::nullopt;
    // The optimistic lookup every push starts with, on an idle push
    // connection rather than reader_: a commit on another connection makes a
    // WAL reader drop its page cache, so reader_ read the result index again
    // from the file at every push, while the connection that made the last
    // commit still holds those pages (issue 22). Outside a transaction it reads
    // the last committed state, as reader_ would.
    std::unique_ptr<Connection> connection = push_connection();
    std::optional<std::string> result =
        read_push_result_on(*connection, partition, client_id, client_commit_id);
    idle_push_->give_back(std::move(connection));
    return result;
  }

  std::int64_t read_max_commit_seq(const std::string& partition) override {
    if (!core_tables_exist()) return 0;
    Statement read =
        reader_.prepare("SELECT max_commit_seq FROM sync_partitions WHERE partition = ?");
    read.bind(1, std::string_view(partition));
    return read.step() ? read.integer("max_commit_seq") : 0;
  }

  AuthoritativeRead read_authoritative(const CompiledTable& table, const std::string& partition,
                                       const std::vector<std::string>& row_ids) override {
    Transaction snapshot(reader_, Transaction::Kind::read);
    AuthoritativeRead read;
    const RowSql sql = row_sql(table);
    for (const auto& row_id : row_ids) {
      if (auto row = read_row_on(reader_, table, sql, partition, row_id)) read.rows.push_back(*row);
    }
    read.max_commit_seq = read_max_commit_seq(partition);
    snapshot.commit();
    return read;
  }

  std::vector<Commit> read_commits(const std::string& partition, std::int64_t after_seq,
                                   std::int64_t limit) override {
    if (!core_tables_exist()) return {};
    Transaction snapshot(reader_, Transaction::Kind::read);
    std::vector<Commit> commits;
    {
      Statement read = reader_.prepare(
          "SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms "
          "FROM sync_commits WHERE partition = ? AND commit_seq > ? ORDER BY commit_seq LIMIT ?");
      read.bind(1, std::string_view(partition)).bind(2, after_seq).bind(3, limit);
      while (read.step()) {
        Commit commit;
        commit.commit_seq = read.integer("commit_seq");
        commit.entry.client_id = read.text("client_id");
        commit.entry.client_commit_id = read.text("client_commit_id");
        commit.entry.actor_id = read.text("actor_id");
        commit.entry.created_at_ms = read.integer("created_at_ms");
        commits.push_back(std::move(commit));
      }
    }
    if (commits.empty()) return commits;
    ValueStatement changes(reader_,
                           "SELECT commit_seq, tbl, row_id, op, row_version, scopes, payload "
                           "FROM sync_changes WHERE partition = ? AND commit_seq >= ? AND "
                           "commit_seq <= ? ORDER BY commit_seq, idx");
    changes.bind(1, partition);
    changes.bind(2, commits.front().commit_seq);
    changes.bind(3, commits.back().commit_seq);
    std::size_t at = 0;
    while (changes.step()) {
      const auto seq = std::get<std::int64_t>(changes.read(0, ColumnType::integer));
      while (at < commits.size() && commits[at].commit_seq < seq) ++at;
      if (at == commits.size() || commits[at].commit_seq != seq) continue;
      commits[at].entry.changes.push_back(change_at(changes, 1));
    }
    snapshot.commit();
    return commits;
  }

  std::vector<WindowCandidate> read_window_candidates(const std::string& partition,
                                                      const std::string& table,
                                                      const WindowIndexKey& key,
                                                      std::int64_t after_seq,
                                                      std::int64_t through_seq,
                                                      std::int64_t batch) override {
    if (!core_tables_exist()) return {};
    const int n = static_cast<int>(key.values.size());
    std::string values;
    for (int i = 0; i < n; ++i) values += (i ? ", ?" : "?") + std::to_string(4 + i);
    const std::string after = "?" + std::to_string(4 + n);
    const std::string through = "?" + std::to_string(5 + n);
    const std::string limit = "?" + std::to_string(6 + n);
    // The candidates through the index, then each one's commit row and its
    // changes of the table. LEFT JOINs: a candidate whose commit is gone
    // still counts, so that a short page means the candidates ran out.
    ValueStatement read(
        reader_,
        "SELECT c.commit_seq, m.actor_id, m.created_at_ms, ch.tbl, ch.row_id, ch.op, "
        "ch.row_version, ch.scopes, ch.payload FROM (SELECT DISTINCT commit_seq FROM "
        "sync_change_scopes WHERE partition = ?1 AND tbl = ?2 AND var = ?3 AND value IN (" +
            values + ") AND commit_seq > " + after + " AND commit_seq <= " + through +
            " ORDER BY commit_seq LIMIT " + limit +
            ") c LEFT JOIN sync_commits m ON m.partition = ?1 AND m.commit_seq = c.commit_seq "
            "LEFT JOIN sync_changes ch ON ch.partition = ?1 AND ch.commit_seq = c.commit_seq "
            "AND ch.tbl = ?2 ORDER BY c.commit_seq, ch.idx");
    read.bind(1, partition);
    read.bind(2, table);
    read.bind(3, key.variable);
    for (int i = 0; i < n; ++i) read.bind(4 + i, key.values[static_cast<std::size_t>(i)]);
    read.bind(4 + n, after_seq);
    read.bind(5 + n, through_seq);
    read.bind(6 + n, batch);
    Transaction snapshot(reader_, Transaction::Kind::read);
    std::vector<WindowCandidate> candidates;
    while (read.step()) {
      const auto seq = std::get<std::int64_t>(read.read(0, ColumnType::integer));
      add_window_row(
          candidates, seq,
          [&]() -> std::optional<WindowCommit> {
            const RowValue actor = read.read(1, ColumnType::string);
            const auto* actor_id = std::get_if<std::string>(&actor);
            if (actor_id == nullptr) return std::nullopt;
            return WindowCommit{seq, std::get<std::int64_t>(read.read(2, ColumnType::integer)),
                                *actor_id, {}};
          },
          [&]() -> std::optional<Change> {
            if (std::holds_alternative<std::monostate>(read.read(3, ColumnType::string))) {
              return std::nullopt;
            }
            return change_at(read, 3);
          });
    }
    snapshot.commit();
    return candidates;
  }

  PartitionEntry write_registry(const PartitionEntry& entry, RegistryWrite write) override {
    Transaction transaction(writer_, Transaction::Kind::write);
    if (write == RegistryWrite::rotation) {
      writer_.prepare("DELETE FROM sync_clients WHERE partition = ?")
          .bind(1, std::string_view(entry.partition))
          .run();
    }
    writer_
        .prepare("INSERT INTO sync_partition_registry (" + std::string(kRegistryColumns) +
                 ") VALUES (?, ?, ?, ?) ON CONFLICT (partition) DO UPDATE SET " +
                 std::string(registry_conflict_update(write)))
        .bind(1, std::string_view(entry.partition))
        .bind(2, std::string_view(entry.log_epoch))
        .bind(3, static_cast<std::int64_t>(entry.epoch_required ? 1 : 0))
        .bind(4, entry.last_authenticated_at_ms)
        .run();
    std::optional<PartitionEntry> stored;
    {
      Statement read = writer_.prepare(registry_select() + " WHERE partition = ?");
      read.bind(1, std::string_view(entry.partition));
      if (read.step()) stored = registry_entry(read);
    }
    if (!stored) throw StorageError("the partition registry lost " + entry.partition);
    transaction.commit();
    return *stored;
  }

  std::optional<std::string> read_partition_epoch(const std::string& partition) override {
    if (!core_tables_exist()) return std::nullopt;
    Statement read =
        reader_.prepare("SELECT log_epoch FROM sync_partition_registry WHERE partition = ?");
    read.bind(1, std::string_view(partition));
    if (!read.step()) return std::nullopt;
    return read.text("log_epoch");
  }

  std::vector<PartitionEntry> read_partition_registry() override {
    if (!core_tables_exist()) return {};
    Statement read = reader_.prepare(registry_select() + " ORDER BY partition");
    std::vector<PartitionEntry> entries;
    while (read.step()) entries.push_back(registry_entry(read));
    return entries;
  }

  std::unique_ptr<PushSession> open_push_session() override {
    return open_sqlite_push_session(idle_push_, push_connection());
  }

 private:
  // An idle push connection, or a new one at the storage's durability.
  std::unique_ptr<Connection> push_connection() {
    return idle_push_->take_or([&] {
      auto connection = std::make_unique<Connection>(path_, false, options().lock_wait_ms);
      connection->exec(durability_pragmas_);
      // A push runs under a savepoint, whose journal holds every page the push
      // changes. Past 64 KiB SQLite spills it to a temporary file, created and
      // unlinked at every push: with the default temp_store (a file, in
      // Debian's build) a one-operation push crossed it. The journal only
      // serves a rollback inside the transaction, so memory loses nothing a
      // crash could need (issue 22).
      connection->exec("PRAGMA temp_store = MEMORY");
      return connection;
    });
  }

  static std::string registry_select() {
    return "SELECT " + std::string(kRegistryColumns) + " FROM sync_partition_registry";
  }

  static PartitionEntry registry_entry(Statement& read) {
    return PartitionEntry{read.text("partition"), read.text("log_epoch"),
                          read.integer("epoch_required") != 0,
                          read.integer("last_authenticated_at_ms")};
  }

  bool core_tables_exist() {
    return core_tables_.exist([&] {
      return reader_
          .prepare(
              "SELECT 1 AS present FROM sqlite_master WHERE type = 'table' "
              "AND name = 'sync_push_results'")
          .step();
    });
  }

  std::string path_;
  std::string durability_pragmas_;  // sqlite_durability_pragmas of the storage's level
  Connection writer_;
  Connection reader_;
  CoreTablesSeen core_tables_;  // under read_mutex_, as reader_
  std::shared_ptr<IdlePushConnections> idle_push_ =
      std::make_shared<IdlePushConnections>(sql::kMaxIdlePushConnections);
};

}  // namespace

std::unique_ptr<ServerStorage> open_sqlite_server_storage(
    const std::string& path, ServerStorageOptions options,
    SqliteServerStorageOptions sqlite_options) {
  return std::make_unique<SqliteServerStorage>(path, std::move(options), sqlite_options);
}

}  // namespace ssp::storage
