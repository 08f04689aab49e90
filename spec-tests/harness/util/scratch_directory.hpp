// Where the harness keeps the files of its test databases and of the
// programs it runs (driver stderr, child output).
#pragma once

#include <filesystem>

namespace ssp::harness {

// SSP_SCRATCH_DIR when it is set; else /dev/shm when that is a writable
// directory; else the system's temporary directory. Decided once per run.
//
// Why memory by default: no test of the suite is about what survives a power
// cut (durability across a new connection, IMPL-R47, holds on tmpfs too), and
// fsync to disk was most of the SQLite tests' time. A candidate whose
// behaviour depends on the file system can be run with SSP_SCRATCH_DIR on a
// disk.
const std::filesystem::path& scratch_directory();

}  // namespace ssp::harness
