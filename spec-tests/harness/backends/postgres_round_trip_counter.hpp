// Counts the client/server round trips that PostgreSQL clients make, from
// outside the client: a relay between the clients and the server that reads
// the server's messages as they pass. Tests and benchmarks use it to pin how
// many round trips an operation of a store costs, without trusting the store.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace ssp::harness {

// A man-in-the-middle relay in front of the PostgreSQL server of a DSN.
//
// It listens on a Unix socket in a fresh temporary directory; dsn() names it
// with the upstream DSN's other settings (dbname, user, password, options…).
// Every client connection accepted there gets its own plain (non-SSL)
// connection to the upstream server, and bytes are relayed unchanged both
// ways until either side closes. libpq never asks for SSL or GSS encryption
// over a Unix socket (and the relay itself declines such a request), so the
// server's side is always the framed protocol (a type byte, then a big-endian
// int32 length that counts itself), which the relay follows.
//
// round_trips() counts the ReadyForQuery ('Z') messages the server sent, over
// every connection. Each one ends one request/response exchange of a client
// that does not pipeline (libpq's PQexec / PQexecParams / PQexecPrepared, and
// so libpqxx): one simple Query or one extended-protocol Sync. The startup
// handshake of each connection ends with one too, so callers measure an
// operation as the difference of round_trips() around it. The count is raised
// before the message is passed on, so a client that got its answer sees it
// counted.
//
// Upstream: `host` (a name, an address or a socket directory; one host
// only), `hostaddr` and `port` of the DSN, else PGHOST / PGPORT, else
// /var/run/postgresql and 5432. A server that demands SSL cannot be reached.
//
// Thread-safe; the relay runs on threads of its own. The destructor closes
// every relayed connection (clients then see the server go away), stops the
// threads and removes the socket and its directory.
class PostgresRoundTripCounter {
 public:
  // Throws std::runtime_error naming what failed: a DSN libpq cannot parse,
  // a temporary directory or socket it cannot make, an upstream server it
  // cannot connect to (tried once here).
  explicit PostgresRoundTripCounter(const std::string& upstream_dsn);
  ~PostgresRoundTripCounter();
  PostgresRoundTripCounter(const PostgresRoundTripCounter&) = delete;
  PostgresRoundTripCounter& operator=(const PostgresRoundTripCounter&) = delete;

  // A key=value DSN that reaches the upstream server through this relay.
  std::string dsn() const;

  // ReadyForQuery messages relayed so far, on every connection.
  std::int64_t round_trips() const;

 private:
  struct Relay;
  std::unique_ptr<Relay> relay_;
};

}  // namespace ssp::harness
