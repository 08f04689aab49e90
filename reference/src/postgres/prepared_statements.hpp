// Statements a PostgreSQL connection has prepared, by their SQL text (issue
// 22): the push path sends the same few statements on its pooled connections
// again and again, and a prepared statement is parsed and planned once per
// connection instead of at every execution.
#pragma once

#include <pqxx/pqxx>
#include <string>
#include <unordered_map>
#include <vector>

namespace ssp::postgres {

class PreparedStatements {
 public:
  // The statements of `connection`, which must outlive this object.
  explicit PreparedStatements(pqxx::connection_base& connection) : connection_(connection) {}

  // Runs `sql` in `txn` (a transaction on this connection) with `params` in
  // text form, a null pointer being NULL. The first run of a text on this
  // connection defines it (libpqxx sends the PREPARE with that first
  // execution); every later one only executes it.
  pqxx::result exec(pqxx::transaction_base& txn, const std::string& sql,
                    const std::vector<const char*>& params);

  // The name `sql` is prepared under on the server, preparing it now when it
  // is not yet (one round trip, once per connection), for an SQL EXECUTE of
  // it in a batch (statement_batch.hpp).
  const std::string& prepared_name(const std::string& sql);

 private:
  const std::string& defined_name(const std::string& sql);

  pqxx::connection_base& connection_;
  std::unordered_map<std::string, std::string> names_;  // SQL text → statement name
};

}  // namespace ssp::postgres
