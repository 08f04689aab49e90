#include "read_only_database.hpp"

#include <sqlite3.h>

#include <pqxx/pqxx>

#include "ssp/errors/errors.hpp"

namespace ssp::tools {
namespace {

class SqliteReadOnly final : public ReadOnlyDatabase {
 public:
  explicit SqliteReadOnly(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw StorageError("SQLite: open: " + message);
    }
    sqlite3_busy_timeout(db_, 30'000);
    // A deferred read transaction: one snapshot for every query, and never
    // committed (closing the connection ends it).
    run_plain("BEGIN");
  }
  ~SqliteReadOnly() override { sqlite3_close_v2(db_); }

  std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlParam>& params) override {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) fail("prepare");
    std::vector<SqlRow> rows;
    try {
      for (std::size_t i = 0; i < params.size(); ++i) {
        const int index = static_cast<int>(i) + 1;
        const int rc =
            std::holds_alternative<std::int64_t>(params[i])
                ? sqlite3_bind_int64(stmt, index, std::get<std::int64_t>(params[i]))
                : sqlite3_bind_text(stmt, index, std::get<std::string>(params[i]).c_str(), -1,
                                    SQLITE_TRANSIENT);
        if (rc != SQLITE_OK) fail("bind");
      }
      int rc = SQLITE_OK;
      while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        SqlRow row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
          if (sqlite3_column_type(stmt, c) == SQLITE_NULL) {
            row.emplace_back();
          } else {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            row.emplace_back(
                std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
          }
        }
        rows.push_back(std::move(row));
      }
      if (rc != SQLITE_DONE) fail("step");
    } catch (...) {
      sqlite3_finalize(stmt);
      throw;
    }
    sqlite3_finalize(stmt);
    return rows;
  }

  bool has_table(const std::string& name) override {
    return !query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", {name}).empty();
  }
  std::string hex_of(const std::string& column) const override {
    return "CASE WHEN " + column + " IS NULL THEN NULL ELSE hex(" + column + ") END";
  }
  std::string text_of(const std::string& column) const override { return column; }

 private:
  void run_plain(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail("exec");
  }
  [[noreturn]] void fail(const char* what) {
    throw StorageError(std::string("SQLite: ") + what + ": " + sqlite3_errmsg(db_));
  }

  sqlite3* db_ = nullptr;
};

// libpqxx failures as StorageError, as the reference's backend reports them.
template <typename F>
auto guarded(F&& body) {
  try {
    return body();
  } catch (const SspError&) {
    throw;
  } catch (const std::exception& failure) {
    throw StorageError(std::string("PostgreSQL: ") + failure.what());
  }
}

class PostgresReadOnly final : public ReadOnlyDatabase {
 public:
  PostgresReadOnly(const std::string& dsn, const std::string& schema) {
    guarded([&] {
      connection_ = std::make_unique<pqxx::connection>(dsn);
      {
        pqxx::nontransaction settings(*connection_);
        settings.exec("SET default_transaction_read_only = on");
        settings.exec("SET search_path TO " + connection_->quote_name(schema));
      }
      txn_ = std::make_unique<Transaction>(*connection_);
      schema_ = schema;
      return 0;
    });
  }
  ~PostgresReadOnly() override {
    txn_.reset();  // aborts: nothing to commit
  }

  std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlParam>& params) override {
    return guarded([&] {
      std::string numbered;
      int next = 0;
      // Appended piece by piece: GCC 12 misreports "$" + std::to_string(n)
      // as -Wrestrict in optimized builds (GCC bugs 105329, 105651).
      for (char c : sql) {
        if (c != '?') {
          numbered += c;
          continue;
        }
        numbered += '$';
        numbered += std::to_string(++next);
      }
      std::vector<std::string> values;
      for (const auto& param : params) {
        values.push_back(std::holds_alternative<std::int64_t>(param)
                             ? std::to_string(std::get<std::int64_t>(param))
                             : std::get<std::string>(param));
      }
      std::vector<const char*> pointers;
      for (const auto& value : values) pointers.push_back(value.c_str());
      const pqxx::result result =
          txn_->exec_params(numbered, pqxx::prepare::make_dynamic_params(pointers));
      std::vector<SqlRow> rows;
      for (const auto& record : result) {
        SqlRow row;
        for (const auto& field : record) {
          if (field.is_null()) {
            row.emplace_back();
          } else {
            row.emplace_back(std::string(field.c_str(), field.size()));
          }
        }
        rows.push_back(std::move(row));
      }
      return rows;
    });
  }

  bool has_table(const std::string& name) override {
    return !query("SELECT 1 FROM pg_tables WHERE schemaname = ? AND tablename = ?", {schema_, name})
                .empty();
  }
  std::string hex_of(const std::string& column) const override {
    return "encode(" + column + ", 'hex')";
  }
  std::string text_of(const std::string& column) const override { return column + "::text"; }

 private:
  using Transaction = pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>;

  std::unique_ptr<pqxx::connection> connection_;
  std::unique_ptr<Transaction> txn_;
  std::string schema_;
};

}  // namespace

std::unique_ptr<ReadOnlyDatabase> open_read_only_sqlite(const std::string& path) {
  return std::make_unique<SqliteReadOnly>(path);
}

std::unique_ptr<ReadOnlyDatabase> open_read_only_postgres(const std::string& dsn,
                                                          const std::string& pg_schema) {
  return std::make_unique<PostgresReadOnly>(dsn, pg_schema);
}

}  // namespace ssp::tools
