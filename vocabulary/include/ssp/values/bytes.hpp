// Bytes: what a segment, a row payload, a key or a MAC is made of.
#pragma once

#include <cstdint>
#include <vector>

namespace ssp {

using Bytes = std::vector<std::uint8_t>;

}  // namespace ssp
