#include "harness/backends/postgres_connection_pool.hpp"

#include <map>
#include <mutex>
#include <vector>

namespace ssp::harness {

namespace {

// How many idle connections a DSN keeps: enough for the test databases one
// test has open at once (a property case builds several), few enough that a
// run's idle backends stay far below the cluster's max_connections.
constexpr std::size_t kIdlePerDsn = 4;

struct Pool {
  std::mutex mutex;
  std::map<std::string, std::vector<std::unique_ptr<pqxx::connection>>> idle;
};

// Never destroyed: connections still idle at exit are closed by the process's
// end, after every static a test database could use.
Pool& pool() {
  static auto* instance = new Pool;
  return *instance;
}

}  // namespace

std::unique_ptr<pqxx::connection> take_postgres_connection(const std::string& dsn) {
  {
    const std::lock_guard lock(pool().mutex);
    auto found = pool().idle.find(dsn);
    if (found != pool().idle.end() && !found->second.empty()) {
      auto connection = std::move(found->second.back());
      found->second.pop_back();
      return connection;
    }
  }
  return std::make_unique<pqxx::connection>(dsn);
}

void return_postgres_connection(const std::string& dsn,
                                std::unique_ptr<pqxx::connection> connection) noexcept {
  try {
    if (!connection || !connection->is_open()) return;
    {
      // Back to what a new connection has: no search_path of a dropped schema,
      // no setting and no session-level advisory lock a test left.
      pqxx::nontransaction txn(*connection);
      txn.exec("RESET ALL; SELECT pg_advisory_unlock_all()");
    }
    const std::lock_guard lock(pool().mutex);
    auto& idle = pool().idle[dsn];
    if (idle.size() < kIdlePerDsn) idle.push_back(std::move(connection));
  } catch (...) {
    // Closed with `connection`: the next test database opens a new one.
  }
}

}  // namespace ssp::harness
