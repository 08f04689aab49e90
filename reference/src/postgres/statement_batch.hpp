// Statements sent together as one simple query (issue 22): one round trip
// whatever their number. PostgreSQL runs them in order and stops at the first
// that fails; inside a transaction block the block is then aborted, so the
// sender rolls back to a savepoint taken before the batch.
//
// The simple query protocol carries no parameters, so a statement goes in as
// an SQL EXECUTE of the connection's prepared statement with its values as
// quoted literals: the server parses only the EXECUTE, and plans as it does
// for a prepared statement run through the extended protocol.
#pragma once

#include <pqxx/pqxx>
#include <string>
#include <string_view>

#include "prepared_statements.hpp"
#include "storage_postgres_sql.hpp"

namespace ssp::storage {

class StatementBatch {
 public:
  // Sends nothing itself; `connection` quotes the values (its escaping follows
  // its standard_conforming_strings) and `prepared` holds its statements.
  StatementBatch(pqxx::connection_base& connection, postgres::PreparedStatements& prepared)
      : connection_(connection), prepared_(prepared) {}

  // Appends `statement`, prepared on the connection if it is not yet.
  void add(const Statement& statement);
  // Appends a statement that has no parameters, as it is (SAVEPOINT, COMMIT…).
  void add(std::string_view sql);

  bool empty() const { return text_.empty(); }
  // The batch's text, leaving the batch empty.
  std::string take();

 private:
  pqxx::connection_base& connection_;
  postgres::PreparedStatements& prepared_;
  std::string text_;
};

}  // namespace ssp::storage
