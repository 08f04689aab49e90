// Names for the objects a run creates in a shared PostgreSQL server.
#pragma once

#include <string>

namespace ssp::harness {

// `prefix` followed by 12 random lowercase letters and digits: a name no
// other test or run picks, usable unquoted as a PostgreSQL identifier when
// `prefix` is.
std::string random_name(const std::string& prefix);

}  // namespace ssp::harness
