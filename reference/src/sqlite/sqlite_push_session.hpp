// The SQLite server storage's push session: the port SqlPushTransaction
// drives (core/storage/storage_push_transaction.hpp), on a connection of its own.
#pragma once

#include <memory>

#include "../sql/idle_connections.hpp"
#include "core/storage/storage_push_transaction.hpp"
#include "sqlite_connection.hpp"

namespace ssp::storage {

// The push connections a storage keeps for reuse.
using IdlePushConnections = sql::IdleConnections<sqlite::Connection>;

// A session on `connection`, taken from `idle` or newly opened by the storage,
// and given back to `idle` when its transaction ended cleanly.
std::unique_ptr<PushSession> open_sqlite_push_session(
    std::shared_ptr<IdlePushConnections> idle, std::unique_ptr<sqlite::Connection> connection);

}  // namespace ssp::storage
