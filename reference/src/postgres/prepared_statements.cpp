#include "prepared_statements.hpp"

namespace ssp::postgres {

const std::string& PreparedStatements::defined_name(const std::string& sql) {
  auto named = names_.find(sql);
  if (named == names_.end()) {
    // Names are per connection: a counter is enough to keep them apart.
    named = names_.emplace(sql, "ssp_push_" + std::to_string(names_.size() + 1)).first;
    connection_.prepare(named->second, sql);
  }
  return named->second;
}

pqxx::result PreparedStatements::exec(pqxx::transaction_base& txn, const std::string& sql,
                                      const std::vector<const char*>& params) {
  return txn.exec_prepared(defined_name(sql), pqxx::prepare::make_dynamic_params(params));
}

const std::string& PreparedStatements::prepared_name(const std::string& sql) {
  const std::string& name = defined_name(sql);
  // Nothing when it is already prepared; after libpqxx restored a broken
  // connection, it prepares the statement again.
  connection_.prepare_now(name);
  return name;
}

}  // namespace ssp::postgres
