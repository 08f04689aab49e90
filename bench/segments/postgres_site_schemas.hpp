// The two fresh schemas of a PostgreSQL site, shared by the segment and push
// sites: the measured one (its tables made by whatever opens it there) and the
// floor's, made with its one table. Both are dropped with the object, so
// nothing a run leaves behind is seen by the next.
#pragma once

#include <pqxx/pqxx>
#include <string>
#include <string_view>

namespace ssp::bench {

class PostgresSiteSchemas {
 public:
  // Creates the floor schema with `floor_table` ("name(column definitions)")
  // in it, and names the measured schema; `role` goes into both names. Throws
  // the client library's error when the server refuses.
  PostgresSiteSchemas(const std::string& dsn, std::string_view role,
                      const std::string& floor_table);
  ~PostgresSiteSchemas();
  PostgresSiteSchemas(const PostgresSiteSchemas&) = delete;
  PostgresSiteSchemas& operator=(const PostgresSiteSchemas&) = delete;

  const std::string& measured() const { return measured_; }
  const std::string& floor() const { return floor_; }
  // A connection of the site's own, for statements outside any measured one.
  pqxx::connection& admin() { return admin_; }

 private:
  std::string measured_;
  std::string floor_;
  pqxx::connection admin_;
};

}  // namespace ssp::bench
