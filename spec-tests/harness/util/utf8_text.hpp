// Text the reports can carry as UTF-8 whatever a test printed: a failure
// message may quote raw bytes (a segment's payload, a driver's broken line).
#pragma once

#include <string>
#include <string_view>

namespace ssp::harness {

// `text` with every byte sequence that is not well-formed UTF-8 replaced by
// U+FFFD, one per offending byte; well-formed text comes back unchanged.
std::string with_valid_utf8(std::string_view text);

}  // namespace ssp::harness
