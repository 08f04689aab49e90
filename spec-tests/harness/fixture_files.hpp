// Files under fixtures/ (legacy databases as SQL scripts, golden values).
#pragma once

#include <string>

namespace ssp::harness {

// The contents of fixtures/<relative_path>. Throws when it cannot be read.
std::string read_fixture(const std::string& relative_path);

}  // namespace ssp::harness
