// What changed between two dumps of a test database (TestDatabase::
// dump_all_tables: a "== <table>" line, then one line per row or
// definition), in words a failure message can carry: the whole dumps are
// thousands of lines, the change a few.
#pragma once

#include <string>

namespace ssp::harness {

// Per table whose lines differ: how many lines `after` adds and drops, and
// the first few of each, shortened; "" when the dumps are equal.
std::string dump_difference(const std::string& before, const std::string& after);

}  // namespace ssp::harness
