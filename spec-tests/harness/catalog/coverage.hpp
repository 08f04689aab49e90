// Where the project stands on every requirement id of the design notes
// (docs/requirements/coverage.md). Each id is in exactly one place: a catalog
// row with tests, a row "covered under another id" naming that row, or a row
// "not yet covered" with the reason. The inventory table lists every id the
// design notes define, so an id that drops out of all three is seen, even in
// a clone without the design notes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/catalog/catalog.hpp"

namespace ssp::harness {

struct CoverageAlias {
  std::string file;
  std::string id;          // the design-note id, e.g. "SEG-INV-3"
  std::string covered_by;  // the catalog id whose tests cover it, e.g. "PROP_MODEL"
};

struct CoverageGap {
  std::string file;
  std::string id;  // e.g. "D-1", "PUSH-R3"
  std::string requirement;
  std::string reason;  // why not yet, e.g. "push pipeline: issue 10"
};

struct Coverage {
  std::vector<std::string> inventory;  // every design-note id, ranges expanded
  std::vector<CoverageAlias> aliases;
  std::vector<CoverageGap> gaps;
};

// The coverage tables of the docs/requirements/*.md under `directory`,
// recognised by their last header cell: "ids" (inventory), "covered by"
// (aliases), "not yet covered because" (gaps).
Coverage load_coverage(const std::string& directory);

// "R1…R3, ADM-R48" → R1, R2, R3, ADM-R48. A range is two ids that differ only
// in their trailing number, joined by "…". Throws std::invalid_argument on a
// range it cannot read.
std::vector<std::string> expand_id_ranges(const std::string& text);

// What is wrong (empty when nothing): an inventory id in no place, an id in
// two places (a gap or alias that also has a catalog row, a gap that is also
// an alias), an alias naming an id without a catalog row, a gap without a
// reason, an alias or gap id the inventory does not have.
std::vector<std::string> coverage_problems(const std::vector<CatalogEntry>& catalog,
                                           const Coverage& coverage);

}  // namespace ssp::harness
