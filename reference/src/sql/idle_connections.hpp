// Connections a server storage opened for push transactions and got back
// clean, kept for the next begin(). Opening one costs more than a short push:
// a PostgreSQL server process and its session settings, SQLite's schema parse
// and the connection's prepared statements. One transaction still owns its
// connection alone while it is open (docs/decisions.md Q5); only a finished
// one hands it on.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace ssp::sql {

// Thread-safe. Shared (shared_ptr) by a storage and the sessions it opened, so
// a session that outlives its storage still has somewhere to give back to.
template <typename Connection>
class IdleConnections {
 public:
  // At most `max_idle` connections are kept; the rest are closed.
  explicit IdleConnections(std::size_t max_idle) : max_idle_(max_idle) {}

  // The most recently given back connection, or null: the caller opens one.
  std::unique_ptr<Connection> take() {
    std::lock_guard<std::mutex> hold(mutex_);
    if (idle_.empty()) return nullptr;
    std::unique_ptr<Connection> connection = std::move(idle_.back());
    idle_.pop_back();
    return connection;
  }

  // take(), or a connection `open()` returns when none is idle.
  template <typename Open>
  std::unique_ptr<Connection> take_or(Open&& open) {
    if (std::unique_ptr<Connection> idle = take()) return idle;
    return open();
  }

  // Keeps `connection` for a later take(). The caller vouches that no
  // transaction is open on it; a connection in an unknown state is closed
  // by its owner instead.
  void give_back(std::unique_ptr<Connection> connection) {
    std::unique_ptr<Connection> closed;  // closed outside the mutex
    std::lock_guard<std::mutex> hold(mutex_);
    if (idle_.size() < max_idle_) {
      idle_.push_back(std::move(connection));
    } else {
      closed = std::move(connection);
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Connection>> idle_;
  const std::size_t max_idle_;
};

// How many finished push connections a storage keeps: enough for the
// concurrent pushes one host process runs against one storage.
inline constexpr std::size_t kMaxIdlePushConnections = 8;

}  // namespace ssp::sql
