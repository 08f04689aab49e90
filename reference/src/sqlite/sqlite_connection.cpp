#include "sqlite_connection.hpp"

#include "ssp/errors/errors.hpp"

namespace ssp::sqlite {
namespace {

// The statement goes on a line of its own: the first line of a StorageError
// is what operator tools print, and it must not show internal SQL.
[[noreturn]] void fail(sqlite3* db, std::string_view what, std::string_view sql = {}) {
  std::string message =
      "SQLite: " + std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
  if (!sql.empty()) message += "\n  in: " + std::string(sql.substr(0, 120));
  throw StorageError(message);
}

}  // namespace

Connection::Connection(const std::string& path, bool read_only, std::int64_t busy_timeout_ms) {
  const int flags = read_only ? SQLITE_OPEN_READONLY
                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    const std::string message = "cannot open " + path;
    try {
      fail(db_, message);
    } catch (...) {
      sqlite3_close(db_);
      throw;
    }
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, static_cast<int>(busy_timeout_ms));
}

Connection::~Connection() {
  for (auto& [sql, pool] : idle_) {
    for (auto& prepared : pool) sqlite3_finalize(prepared.stmt);
  }
  sqlite3_close_v2(db_);
}

void Connection::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw StorageError("SQLite: " + message + "\n  in: " + sql.substr(0, 120));
  }
}

Statement Connection::prepare(std::string_view sql) { return Statement(*this, sql); }

Statement::Statement(Connection& connection, std::string_view sql) : db_(connection.handle()) {
  auto pool = connection.idle_.find(sql);
  if (pool == connection.idle_.end()) {
    pool = connection.idle_.emplace(sql, Connection::Pool()).first;
  }
  pool_ = &pool->second;
  if (!pool_->empty()) {
    stmt_ = pool_->back().stmt;
    columns_ = std::move(pool_->back().columns);
    pool_->pop_back();
    return;
  }
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    fail(db_, "prepare", sql);
  }
  const int count = sqlite3_column_count(stmt_);
  for (int i = 0; i < count; ++i) columns_.emplace_back(sqlite3_column_name(stmt_, i));
}

Statement::~Statement() {
  if (stmt_ == nullptr) return;
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  try {
    pool_->push_back({stmt_, std::move(columns_)});
  } catch (...) {
    sqlite3_finalize(stmt_);  // out of memory: not worth keeping
  }
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_),
      pool_(other.pool_),
      stmt_(other.stmt_),
      columns_(std::move(other.columns_)),
      next_column_(other.next_column_) {
  other.stmt_ = nullptr;
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    fail(db_, "bind");
  }
  return *this;
}

Statement& Statement::bind(int index, const std::optional<std::string>& text) {
  if (text) return bind(index, std::string_view(*text));
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind_blob(int index, std::span<const std::uint8_t> blob) {
  // A zero-length blob with a null pointer would bind NULL; keep it a blob.
  static const std::uint8_t kEmpty = 0;
  const void* data = blob.empty() ? &kEmpty : blob.data();
  if (sqlite3_bind_blob64(stmt_, index, data, blob.size(), SQLITE_STATIC) != SQLITE_OK) {
    fail(db_, "bind");
  }
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "step", sqlite3_sql(stmt_));
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int Statement::index_of(std::string_view column) const {
  const std::size_t count = columns_.size();
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t i = (next_column_ + step) % count;
    if (columns_[i] == column) {
      next_column_ = i + 1;
      return static_cast<int>(i);
    }
  }
  throw StorageError("SQLite: result has no column " + std::string(column));
}

std::int64_t Statement::integer(std::string_view column) const {
  return sqlite3_column_int64(stmt_, index_of(column));
}

std::string Statement::text(std::string_view column) const {
  const int i = index_of(column);
  const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
  return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)))
              : std::string();
}

std::optional<std::string> Statement::nullable_text(std::string_view column) const {
  if (sqlite3_column_type(stmt_, index_of(column)) == SQLITE_NULL) return std::nullopt;
  return text(column);
}

std::span<const std::uint8_t> Statement::blob(std::string_view column) const {
  const int i = index_of(column);
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, i));
  return {data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))};
}

// BEGIN and COMMIT run as prepared statements: a get or put runs both, and
// parsing them each time is measurable next to a primary-key lookup.
Transaction::Transaction(Connection& connection, Kind kind) : connection_(connection) {
  connection_.prepare(kind == Kind::write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED").run();
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  connection_.prepare("COMMIT").run();
  open_ = false;
}

}  // namespace ssp::sqlite
