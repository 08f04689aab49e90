// The §10.2 table as SPEC gives it (fixtures/cases/error_catalog/spec_10_2.json),
// the known answer a candidate's protocol errors are read against: not the
// reference's catalog, which is code under test.
#pragma once

#include <string_view>

#include "ssp/errors/protocol_error.hpp"

namespace ssp::harness {

// The row of `code`, or nullptr when §10.2 has no such code. The fixture is read
// once, on the first call; the row lives as long as the program. Throws
// DataDirectoryError or std::runtime_error when the fixture cannot be read.
const ErrorCatalogEntry* spec_error_entry(std::string_view code);

}  // namespace ssp::harness
