// Documents point only inside the repository: a reader of a clone must be
// able to follow every reference. Cite SSP2 sections and this repository's
// own files instead of the design notes' paths.
#pragma once

#include <string>
#include <vector>

namespace ssp::harness {

// The Markdown files of the repository at `root` that a reader is pointed
// to: README.md and every *.md under docs/, bench/, property-tests/, reference/
// and spec-tests/ (the layout tables among them).
std::vector<std::string> repository_documents(const std::string& root);

// What in `file` (under `root`) points outside the repository: a Markdown
// link or a path starting with "../" that resolves outside `root` or to no
// file; a path to a .md file that exists neither beside `file` nor under
// `root`; an absolute file path as a link target. One message per finding,
// naming the file and line.
std::vector<std::string> outside_references(const std::string& root, const std::string& file);

}  // namespace ssp::harness
