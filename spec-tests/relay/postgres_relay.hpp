// Counts the client/server round trips that PostgreSQL clients make, from
// outside the client: a relay between the clients and the server that reads
// the server's messages as they pass. Tests and benchmarks use it to pin how
// many round trips an operation of a store costs, without trusting the store.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
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
// cut_at() arms a connection fault (issue 35, docs/faults.md): the k-th round
// trip of a request from then on, over every connection, is cut, either
// before the client's request reaches the server or after the server's answer
// arrived but before the client sees it (the ambiguous case: a COMMIT the
// server made and the client never heard of). The cut connection is closed
// both ways, so the server rolls back what that connection had not committed.
// Startup handshakes are not numbered for a cut: a client that pools its
// connections (Bun.sql) opens them in the background, so their handshakes
// fall anywhere among its requests and no k would name the same exchange
// twice.
//
// Thread-safe; the relay runs on threads of its own. The destructor closes
// every relayed connection (clients then see the server go away), stops the
// threads and removes the socket and its directory.
class PostgresRelay {
 public:
  // Throws std::runtime_error naming what failed: a DSN libpq cannot parse,
  // a temporary directory or socket it cannot make, an upstream server it
  // cannot connect to (tried once here).
  explicit PostgresRelay(const std::string& upstream_dsn);
  ~PostgresRelay();
  PostgresRelay(const PostgresRelay&) = delete;
  PostgresRelay& operator=(const PostgresRelay&) = delete;

  // A key=value DSN that reaches the upstream server through this relay.
  std::string dsn() const;

  // ReadyForQuery messages relayed so far, on every connection.
  std::int64_t round_trips() const;
  // Those of them that ended a request, not a connection's startup
  // handshake: the round trips cut_at numbers.
  std::int64_t request_round_trips() const;

  // Where a round trip is cut.
  enum class CutMoment {
    before_request,  // the client's first bytes after the previous answer are not passed on
    after_answer,    // the server's bytes that end the round trip are not passed on
  };
  // A cut the relay made.
  struct Cut {
    std::int64_t round_trip = 0;  // k of cut_at
    CutMoment moment = CutMoment::before_request;
    // The last SQL the cut connection's client sent (a simple Query or the
    // Parse of an extended one), shortened; "" when it had sent none.
    std::string last_statement;
  };

  // Cuts the `round_trip`-th round trip of a request (from 1) that ends from
  // now on, over every connection, at `moment`; replaces an armed cut that
  // was not made. A connection's startup handshake is never cut.
  void cut_at(std::int64_t round_trip, CutMoment moment);
  // The cut made since the last cut_at, or nothing.
  std::optional<Cut> cut_made() const;

 private:
  struct Relay;
  std::unique_ptr<Relay> relay_;
};

}  // namespace ssp::harness
