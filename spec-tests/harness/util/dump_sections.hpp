// Parts of a test database's dump (TestDatabase::dump_all_tables: a
// "== <section>" line, then one line per row or definition), for checks that
// judge some of a database's state and not all of it.
#pragma once

#include <string>
#include <string_view>

namespace ssp::harness {

// `dump` without the section of table `table` (its "== <table>" line and its
// rows); `dump` unchanged when it has none. The "== columns", "== indexes"
// and "== constraints" sections, which name every table, stay as they are.
std::string without_table(const std::string& dump, std::string_view table);

}  // namespace ssp::harness
