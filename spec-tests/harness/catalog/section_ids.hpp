// The section ids a catalog cell or a recorded "spec" property names. A test
// that checks several sections counts under each (docs/harness.md, "The
// verdict"), so every report splits the cell the same way, through here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

// The ids of `cell`, in its order, each once: "§2.1, §6.8" → {"§2.1",
// "§6.8"}. Ids are separated by commas; a cell of one word ("Catalog") is
// that word. Blank ids are dropped.
std::vector<std::string> section_ids(std::string_view cell);

// Whether `id` has the form of an SSP2 section number: "§" and one or more
// dot-separated numbers ("§0", "§5.9.1", "§11.2").
bool is_numbered_section(std::string_view id);

// Orders section ids as the spec does: numbered sections by their numbers
// (§2.4 < §5.9 < §5.9.1 < §10.2), every other name after them,
// alphabetically.
bool section_before(std::string_view a, std::string_view b);

}  // namespace ssp::harness
