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

// Where the JSON syntax of `text` goes wrong, in the harness's words: "line
// L, column C: an unexpected 'x'", or that the text ends inside its value;
// "" when the syntax is right and the JSON input rule refused the text for
// another reason (a number outside binary64, a byte-order mark), which its
// own message says. nlohmann is asked only where, never for its text.
std::string syntax_problem(const std::string& text) {
  std::size_t byte = 0;  // 1-based: the last byte the parser read
  try {
    [[maybe_unused]] const auto parsed = nlohmann::json::parse(text);
    return "";
  } catch (const nlohmann::json::parse_error& error) {
    byte = error.byte;
  } catch (const std::exception&) {
    return "";
  }
  const std::size_t at = byte == 0 ? 0 : byte - 1;
  if (at >= text.size()) return "the text ends before its JSON value does";
  const auto before = text.begin() + static_cast<std::ptrdiff_t>(at);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), before, '\n'));
  const std::size_t newline = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  const std::size_t column = at - (newline == std::string::npos ? 0 : newline + 1) + 1;
  const unsigned char c = static_cast<unsigned char>(text[at]);
  const std::string shown = c >= 0x20 && c < 0x7f ? "'" + std::string(1, text[at]) + "'"
                                                  : "byte " + std::to_string(c);
  return "line " + std::to_string(line) + ", column " + std::to_string(column) +
         ": not JSON there (an unexpected " + shown + ")";
}

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
    const std::string where = syntax_problem(text);
    throw std::runtime_error("expectations file " + path + ": " +
                             (where.empty() ? "not JSON: " + std::string(error.what()) : where));
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
