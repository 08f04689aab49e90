// What judged a run (docs/harness.md, "Reports"): the suite's version, the
// driver protocol versions it speaks, the SSP2 revision it was written
// against and the requirements catalog it read. `--version` prints it, and
// every report carries it, so a result names the suite that gave it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/catalog.hpp"

namespace ssp::harness {

struct SuiteIdentity {
  std::string version;  // the suite's release, CMake's project version ("0.1.0")
  std::int64_t oldest_protocol = 0;  // the driver protocol versions it drives, oldest …
  std::int64_t newest_protocol = 0;  // … to newest (docs/driver-protocol.md)
  // "sha256:" and 16 hex digits of SSP2's section ids as the suite lists them
  // (fixtures/spec-sections.txt, one per line): a spec whose headings
  // changed is another revision.
  std::string ssp2_revision;
  // The same digest of the catalog's pages (requirements/*.md, by file name:
  // each name, a newline, its bytes).
  std::string catalog_digest;
};

// The identity of this build, with the section list of the data directory
// (data_directory.hpp) and `catalog_pages`, the pages the run judges by
// (read_catalog_pages). Throws DataDirectoryError when the section list is
// missing.
SuiteIdentity suite_identity(const std::vector<CatalogPage>& catalog_pages);

// What `--version` prints for `program`: one "name: value" line per field.
std::string suite_version_text(const std::string& program, const SuiteIdentity& identity);

}  // namespace ssp::harness
