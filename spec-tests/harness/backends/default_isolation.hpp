// A PostgreSQL server configured with another default transaction isolation,
// as far as the candidate can tell: the setting rides on every connection it
// opens through the location (libpq's `options` parameter), so a candidate
// that leaves the isolation level to the server inherits it (SSP2 §6.3;
// design notes push.md §6.2 R11).
#pragma once

#include <string_view>

#include "harness/candidate/backend.hpp"

namespace ssp::harness {

// `location` with `level` ("repeatable read", "serializable", …) as the
// default_transaction_isolation of every session connecting through it. A
// location already carrying libpq `options` is not supported (one keyword
// would replace the other). Other backends have no such setting: returned
// unchanged.
DatabaseLocation with_default_isolation(DatabaseLocation location, std::string_view level);

}  // namespace ssp::harness
