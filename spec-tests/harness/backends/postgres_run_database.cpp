#include "harness/backends/postgres_run_database.hpp"

#include <libpq-fe.h>

#include <pqxx/pqxx>
#include <stdexcept>

#include "harness/backends/random_name.hpp"

namespace ssp::harness {
namespace {

// `value` as a conninfo value: single-quoted, with \ and ' escaped.
std::string conninfo_value(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\\' || c == '\'') out.push_back('\\');
    out.push_back(c);
  }
  return out + "'";
}

// `dsn` (keyword/value or URI form) with its database replaced by `database`,
// in keyword/value form.
std::string with_database(const std::string& dsn, const std::string& database) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &error);
  if (options == nullptr) {
    const std::string message = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    throw std::runtime_error("harness postgres: cannot parse SSP_PG_DSN: " + message);
  }
  std::string out;
  for (const PQconninfoOption* option = options; option->keyword != nullptr; ++option) {
    const std::string keyword = option->keyword;
    if (option->val == nullptr || keyword == "dbname") continue;
    out += keyword + "=" + conninfo_value(option->val) + " ";
  }
  PQconninfoFree(options);
  return out + "dbname=" + conninfo_value(database);
}

class RunDatabase {
 public:
  explicit RunDatabase(const std::string& server_dsn)
      : server_dsn_(server_dsn),
        name_(random_name("ssp_run_")),
        dsn_(with_database(server_dsn, name_)) {
    pqxx::connection server(server_dsn_);
    pqxx::nontransaction(server).exec("CREATE DATABASE " + name_);
  }

  ~RunDatabase() {
    try {
      pqxx::connection server(server_dsn_);
      // FORCE: a driver that never closed its connection must not keep it.
      pqxx::nontransaction(server).exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (...) {
      // Left behind; a throwaway cluster goes with it.
    }
  }

  const std::string& dsn() const { return dsn_; }

 private:
  const std::string server_dsn_;
  const std::string name_;
  const std::string dsn_;
};

}  // namespace

const std::string& run_database_dsn(const std::string& server_dsn) {
  static const RunDatabase database(server_dsn);
  return database.dsn();
}

}  // namespace ssp::harness
