// A test cannot reach an optional mechanism of the candidate without asking
// its capability gate (HARNESS-25): the only code that sets the options
// switching one on is harness/gates/granted_options.cpp, whose setters take the
// grant SSP_GRANT_CAPABILITY gives. This scans the conformance tests and the
// properties for any other assignment. (Self-tests are out of scope: they
// pin the reference, which has every capability.)
#include <gmock/gmock.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "harness/catalog/source_folders.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

// "file:line: text" for each line of `text` that assigns an option only a
// grant may set.
std::vector<std::string> ungated_assignments(const std::string& file, const std::string& text) {
  static const std::regex assignment(R"(\.(put_hook|ensure_hook|hook|hasher|read_only)\s*=[^=])");
  std::vector<std::string> found;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (std::regex_search(line, assignment)) {
      found.push_back(file + ":" + std::to_string(number) + ": " + line);
    }
  }
  return found;
}

TEST(CapabilityGates, HARNESS_25_TestsSetOptionalMechanismsOnlyThroughTheirGates) {
  record_spec("Harness", "HARNESS-25");
  const std::filesystem::path root = SSP_SOURCE_DIR;
  int scanned = 0;
  std::vector<std::string> directories = conformance_test_folders();
  directories.insert(directories.end(), property_test_folders().begin(),
                     property_test_folders().end());
  for (const std::string& directory : directories) {
    for (const auto& entry : std::filesystem::directory_iterator(root / directory)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !(name.ends_with(".cpp") || name.ends_with(".hpp"))) continue;
      ++scanned;
      for (const std::string& line :
           ungated_assignments(directory + "/" + name, read_text_file(entry.path()))) {
        ADD_FAILURE() << line << "\n  set it with granted_options.hpp, after SSP_GRANT_CAPABILITY";
      }
    }
  }
  EXPECT_GT(scanned, 30) << "the scan found the test sources";

  // The scan itself: it sees each option, and not a comparison.
  EXPECT_THAT(ungated_assignments("t.cpp", "  options.put_hook = hook;\n"
                                           "  o.ensure_hook= h;\n"
                                           "  options.hasher =[](auto) {};\n"
                                           "  read_only.read_only = true;\n"
                                           "  if (options.read_only == true) {}\n"
                                           "  parked.hook = [](push::PushHookPoint) {};\n"),
              ::testing::SizeIs(5));
}

}  // namespace
}  // namespace ssp::harness
