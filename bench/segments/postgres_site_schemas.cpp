#include "postgres_site_schemas.hpp"

#include "common/scratch_places.hpp"

namespace ssp::bench {

PostgresSiteSchemas::PostgresSiteSchemas(const std::string& dsn, std::string_view role,
                                         const std::string& floor_table)
    : measured_(fresh_schema_name(role)),
      floor_(fresh_schema_name(std::string(role) + "_floor")),
      admin_(dsn) {
  pqxx::work ddl(admin_);
  ddl.exec("CREATE SCHEMA " + admin_.quote_name(floor_));
  ddl.exec("CREATE TABLE " + admin_.quote_name(floor_) + "." + floor_table);
  ddl.commit();
}

PostgresSiteSchemas::~PostgresSiteSchemas() {
  try {
    pqxx::work ddl(admin_);
    ddl.exec("DROP SCHEMA IF EXISTS " + admin_.quote_name(measured_) + " CASCADE");
    ddl.exec("DROP SCHEMA IF EXISTS " + admin_.quote_name(floor_) + " CASCADE");
    ddl.commit();
  } catch (const std::exception&) {
    // The throwaway cluster goes away anyway; a destructor must not throw.
  }
}

}  // namespace ssp::bench
