// The harness's own PostgreSQL connections, kept open between test databases.
//
// A connection costs the server a backend: on the machines CI runs on, about
// 30 ms of CPU to start and end, more than a whole segment test spends in
// its statements. Every test database opens one for the harness (its schema,
// its inspection, its injected failures), so a process that makes thousands
// of them hands each one back here when its database is dropped and takes it
// again for the next, instead of starting a backend per test. Only the
// harness's connections are pooled: a candidate opens its own however it
// does in production.
#pragma once

#include <memory>
#include <pqxx/pqxx>
#include <string>

namespace ssp::harness {

// An open connection to `dsn`, in its session defaults: a pooled one when an
// earlier test database returned one for the same DSN, else a new one.
// Thread-safe.
std::unique_ptr<pqxx::connection> take_postgres_connection(const std::string& dsn);

// Hands `connection` back for the next take_postgres_connection(dsn). The
// caller has ended every transaction on it. A connection that is closed, or
// whose session cannot be reset to its defaults (RESET ALL, advisory locks
// released), is closed instead of kept. Never throws. Thread-safe.
void return_postgres_connection(const std::string& dsn,
                                std::unique_ptr<pqxx::connection> connection) noexcept;

}  // namespace ssp::harness
