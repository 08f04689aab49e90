// What an operator tool prints for an error: the first line of its message.
// The reference puts diagnostics after the first line (the SQL statement of a
// failed SQLite call, PostgreSQL's context lines such as "LINE 1: SELECT …"),
// so the first line names the failure without internal SQL.
#pragma once

#include <string>
#include <string_view>

namespace ssp::tools {

// The first line of `message`, without trailing whitespace.
std::string operator_message(std::string_view message);

}  // namespace ssp::tools
