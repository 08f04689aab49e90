// A §5.3 find key given as JSON text by an operator (`ssp-segments find`).
#pragma once

#include <string_view>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// Reads `text` as JSON.parse does, decodes it as the driver protocol decodes a
// key (wire::find_key_from_json: the seven key fields, others ignored, so a
// printed record is a key for its own top-level context), then checks it as a
// put checks metadata (validate_find_key). Throws InvalidArgument starting
// "find key: " and naming the field otherwise.
SegmentFindKey find_key_from_text(std::string_view text);

}  // namespace ssp
