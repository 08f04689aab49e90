#include "prepared_statements.hpp"

namespace ssp::postgres {

pqxx::result PreparedStatements::exec(pqxx::transaction_base& txn, const std::string& sql,
                                      const std::vector<const char*>& params) {
  auto named = names_.find(sql);
  if (named == names_.end()) {
    // Names are per connection: a counter is enough to keep them apart.
    named = names_.emplace(sql, "ssp_push_" + std::to_string(names_.size() + 1)).first;
    connection_.prepare(named->second, sql);
  }
  return txn.exec_prepared(named->second, pqxx::prepare::make_dynamic_params(params));
}

}  // namespace ssp::postgres
