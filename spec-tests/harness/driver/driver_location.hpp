// A harness-owned database location as the driver protocol spells it
// (docs/driver-protocol.md, "Values").
#pragma once

#include "harness/candidate/backend.hpp"
#include "wire/wire_json.hpp"

namespace ssp::harness {

wire::Json location_to_json(const DatabaseLocation& location);

}  // namespace ssp::harness
