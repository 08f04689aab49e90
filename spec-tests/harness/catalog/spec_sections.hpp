// The section ids a catalog row or a test may name (TRACE-10,
// docs/requirements/harness.md): those SSP2 defines, kept in the repository
// as fixtures/spec-sections.txt so that a clone without the spec checks
// against them too, and checked against SPEC.md itself where it is present.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/catalog/catalog.hpp"

namespace ssp::harness {

// Where SSP2's text is expected: <repository>/../shared/spec/SPEC.md.
std::string spec_document_path(const std::string& source_dir);

// The section ids the headings of `spec_markdown` define, in document order,
// each once: "## 2. Data model…" → "§2", "### 5.9 …" → "§5.9", "#### 5.9.1 …"
// → "§5.9.1", the unnumbered "## Conventions …" → "Conventions".
std::vector<std::string> spec_section_ids(const std::string& spec_markdown);

// The ids listed in `list_text` (fixtures/spec-sections.txt): one per line;
// blank lines and lines starting with '#' are comments.
std::vector<std::string> listed_section_ids(const std::string& list_text);

// Names a harness or self-test row may give instead of a section: the
// harness's own areas, which SSP2 does not have.
inline const std::vector<std::string> kHarnessAreas = {"Catalog", "Driver", "Harness"};

// A section a test records (record_spec), found in a source file.
struct RecordedSection {
  std::string file;         // for messages
  std::string section;      // the cell as written, e.g. "§6.3, §2.3"
  std::string requirement;  // the requirement it records
};

// record_spec("SECTION", "REQUIREMENT") calls with literal arguments in
// `source`, the text of `file`.
std::vector<RecordedSection> recorded_sections(const std::string& file, const std::string& source);

// What is wrong with the section cells (empty when nothing): a catalog cell
// with an id `known` does not list (a harness area is allowed in harness and
// self-test rows only), a cell that is not comma-separated ids; a recorded
// section with an id that is not one of its requirement's row, or a
// requirement no row has.
std::vector<std::string> section_problems(const std::vector<CatalogEntry>& catalog,
                                          const std::vector<RecordedSection>& recorded,
                                          const std::vector<std::string>& known);

}  // namespace ssp::harness
