// A media type as the segment tables store it (DECISION D14).
#pragma once

#include <string_view>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// Decodes a stored media type; anything but "sqlite" is rows (D14).
MediaType media_type_from_stored(std::string_view stored);

}  // namespace ssp
