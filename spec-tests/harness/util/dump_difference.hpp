// Two dumps of a test database (TestDatabase::dump_all_tables: a "== <table>"
// line, then one line per row or definition), compared: what changed, in
// words a failure message can carry (the whole dumps are thousands of lines,
// the change a few), and a dump without the table a check leaves out.
#pragma once

#include <string>
#include <string_view>

namespace ssp::harness {

// Per table whose lines differ: how many lines `after` adds and drops, and
// the first few of each, shortened; "" when the dumps are equal.
std::string dump_difference(const std::string& before, const std::string& after);

// `dump` without the section of table `table` (its "== <table>" line and its
// rows), for a check that judges some of a database's state and not all of
// it; `dump` unchanged when it has none. The "== columns", "== indexes" and
// "== constraints" sections, which name every table, stay as they are.
std::string without_table(const std::string& dump, std::string_view table);

}  // namespace ssp::harness
