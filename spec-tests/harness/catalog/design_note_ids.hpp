// The requirement ids the design notes define, read from the notes themselves
// (storage.md §6–§7, segments.md §4–§5, push.md §4.4 and §6), spelled as
// docs/requirements/coverage.md spells them. The notes live next to the
// repository, not in it; a clone without them gets nothing, and the tests
// that compare against them skip.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ssp::harness {

// Where the design notes are expected: <repository>/../shared/design.
std::string design_notes_directory(const std::string& source_dir);

// Every id of the notes in `directory`, in file order; nullopt when the
// directory or one of storage.md, segments.md, push.md is missing.
std::optional<std::vector<std::string>> design_note_ids(const std::string& directory);

}  // namespace ssp::harness
