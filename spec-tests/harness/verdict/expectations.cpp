#include "harness/verdict/expectations.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "ssp/encoding/json_input.hpp"

namespace ssp::harness {
namespace {

using JsonDocument = nlohmann::json;

std::string text_field(const JsonDocument& entry, const char* field, bool may_be_empty,
                       const std::string& where) {
  const auto found = entry.find(field);
  if (found == entry.end() || !found->is_string() ||
      (!may_be_empty && found->get<std::string>().empty())) {
    throw std::runtime_error(where + ": \"" + field + "\" must be a" +
                             (may_be_empty ? "" : " non-empty") + " string");
  }
  return found->get<std::string>();
}

}  // namespace

Expectations load_expectations(const std::string& path,
                               const std::vector<std::string>& known_tests) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("expectations file " + path + ": cannot be read");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  JsonDocument document;
  try {
    // The rule for JSON from outside: a number like 1e400 threw out_of_range,
    // which no one caught, and the library's text would reach the user.
    document = parse_json_input<JsonDocument>(text);
  } catch (const JsonSyntaxError& error) {
    throw std::runtime_error("expectations file " + path + ": not JSON: " + error.what());
  }
  const auto list = document.is_object() ? document.find("expectedFailures") : document.end();
  if (list == document.end() || !list->is_array()) {
    throw std::runtime_error("expectations file " + path +
                             ": not an object with an \"expectedFailures\" list");
  }
  Expectations expectations;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const JsonDocument& entry = (*list)[i];
    const std::string where = "expectations file " + path + ", expectedFailures[" +
                              std::to_string(i) + "]";
    if (!entry.is_object()) throw std::runtime_error(where + ": not an object");
    ExpectedFailure expected{text_field(entry, "test", false, where),
                             text_field(entry, "requirement", false, where),
                             text_field(entry, "backend", true, where),
                             text_field(entry, "reason", false, where),
                             text_field(entry, "spec", false, where)};
    if (std::find(known_tests.begin(), known_tests.end(), expected.test) == known_tests.end()) {
      throw std::runtime_error(where + ": no test is named " + expected.test);
    }
    const std::string test = expected.test;
    if (!expectations.emplace(test, std::move(expected)).second) {
      throw std::runtime_error(where + ": " + test + " is listed twice");
    }
  }
  return expectations;
}

Expectations expectations_from_environment(const std::vector<std::string>& known_tests) {
  const char* path = std::getenv("SSP_EXPECTATIONS");
  if (path == nullptr || *path == '\0') return {};
  return load_expectations(path, known_tests);
}

}  // namespace ssp::harness
