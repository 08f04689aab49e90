#include "harness/catalog/source_folders.hpp"

namespace ssp::harness {

// The same folders as SSP_CONFORMANCE_TEST_FOLDERS in spec-tests/CMakeLists.txt
// and the includes of property-tests/CMakeLists.txt.
const std::vector<std::string>& conformance_test_folders() {
  static const std::vector<std::string> folders = {"spec-tests/segments", "spec-tests/download",
                                                   "spec-tests/storage", "spec-tests/push",
                                                   "spec-tests/races"};
  return folders;
}

const std::vector<std::string>& property_test_folders() {
  static const std::vector<std::string> folders = {
      "property-tests", "property-tests/segments", "property-tests/download",
      "property-tests/storage", "property-tests/push"};
  return folders;
}

}  // namespace ssp::harness
