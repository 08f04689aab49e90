// Where the suite finds the data it reads at run time (docs/ci.md, "Installing
// the suite"): the fixtures, the race schedules, the fault plans and the
// requirements catalog. They sit together in one folder, laid out as an
// installed tree's share/ssp-conformance/:
//
//   fixtures/       the repository's fixtures/
//   schedules/      spec-tests/races/schedules/
//   fault-plans/    spec-tests/faults/plans/
//   requirements/   docs/requirements/
//
// A build tree has the same folder (build/<preset>/share/ssp-conformance/, of
// links into the sources, made when CMake configures), so a program finds its
// data the same way in a build tree, under an install prefix, or in a tree
// moved elsewhere, and no path of the machine that built it is compiled in.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace ssp::harness {

// No data directory, or a file missing from it; what() names every path
// looked for.
class DataDirectoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The data directory: SSP_DATA_DIR (which --data-dir sets) when it is set,
// else the first share/ssp-conformance/ found in the directory of the
// running program's executable or one of its parents (PREFIX/bin/../share,
// build/<preset>/spec-tests/../share). Throws DataDirectoryError when
// SSP_DATA_DIR names no directory, or when none is found going up.
std::filesystem::path data_directory();

// data_directory() / `relative`, which must exist: DataDirectoryError naming
// the path looked for otherwise.
std::filesystem::path data_path(const std::string& relative);

// The source tree the program was built from, for the checks of the
// repository's own files (the catalog tests that read the test sources):
// the link `source` of a build tree's data directory. Nothing under an
// install prefix, where those checks are skipped.
std::optional<std::filesystem::path> repository_directory();

}  // namespace ssp::harness
