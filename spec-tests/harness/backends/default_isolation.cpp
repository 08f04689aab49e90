#include "harness/backends/default_isolation.hpp"

#include <string>

namespace ssp::harness {

DatabaseLocation with_default_isolation(DatabaseLocation location, std::string_view level) {
  if (location.backend != Backend::postgres) return location;
  // Inside libpq's options a blank separates two server options; the one in
  // the level's name is escaped with a backslash, itself escaped for the
  // quoted connection-string value.
  std::string escaped;
  for (const char c : level) escaped += c == ' ' ? std::string("\\\\ ") : std::string(1, c);
  location.pg_dsn += " options='-c default_transaction_isolation=" + escaped + "'";
  return location;
}

}  // namespace ssp::harness
