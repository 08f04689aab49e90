#include "ssp/sqlite/sqlite_durability.hpp"

namespace ssp {

std::string sqlite_durability_pragmas(SqliteDurability durability) {
  const char* synchronous = durability == SqliteDurability::full ? "FULL" : "NORMAL";
  return std::string("PRAGMA journal_mode=WAL; PRAGMA synchronous=") + synchronous + ";";
}

std::string_view sqlite_durability_name(SqliteDurability durability) {
  return durability == SqliteDurability::full ? "full" : "normal";
}

std::optional<SqliteDurability> sqlite_durability_from_name(std::string_view name) {
  if (name == "normal") return SqliteDurability::normal;
  if (name == "full") return SqliteDurability::full;
  return std::nullopt;
}

}  // namespace ssp
