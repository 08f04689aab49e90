// The PostgreSQL push session (PushSession): one transaction on a pooled
// connection of its own, BEGIN ISOLATION LEVEL READ COMMITTED (design notes
// push.md Q1, R11). It never touches the storage's other connections, so
// while it holds the partition lock it never waits for a second connection
// (push.md §2.2).
//
// Round trips (issue 22). Unstaged, every statement is one round trip, each
// prepared once per pooled connection. Staged (stage_writes, under the lock),
// a push makes four on this connection whatever its number of operations:
//  1. BEGIN, the lock, the candidate savepoint and the counter, as one batch;
//  2. the idempotency recheck, carrying the rows read ahead (prefetch_rows);
//  3. at append_commit: every staged row write and the commit log, as one batch;
//  4. at commit: the stored result and COMMIT, as one batch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "../sql/idle_connections.hpp"
#include "core/storage/storage_push_transaction.hpp"
#include "prepared_statements.hpp"

namespace ssp::storage {

// A pooled push connection and the statements it has prepared: they serve
// every later push on it.
struct PushConnection {
  explicit PushConnection(std::unique_ptr<pqxx::connection> opened)
      : connection(std::move(opened)), statements(*connection) {}
  std::unique_ptr<pqxx::connection> connection;
  postgres::PreparedStatements statements;
};

using IdlePushConnections = sql::IdleConnections<PushConnection>;

// A session on an idle connection of `idle`, or on a new one to `dsn` with
// `schema` first on its search path. A session that ends cleanly gives its
// connection back.
std::unique_ptr<PushSession> open_postgres_push_session(std::shared_ptr<IdlePushConnections> idle,
                                                        const std::string& dsn,
                                                        const std::string& schema,
                                                        std::int64_t lock_wait_ms);

}  // namespace ssp::storage
