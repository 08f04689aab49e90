// Case tables kept as data (fixtures/cases/<area>/<table>.json): an object
// with an "about" text and a "cases" array, each case with a "name" that the
// test prints on failure. The in-process and out-of-process runs read the
// same cases.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <stdexcept>
#include <string>

#include "harness/fixture_files.hpp"

namespace ssp::harness {

// The "cases" array of fixtures/<relative_path>. Throws when the file is
// missing, is not JSON, or has no non-empty "cases" array.
inline nlohmann::json read_case_table(const std::string& relative_path) {
  nlohmann::json table = nlohmann::json::parse(read_fixture(relative_path));
  if (!table.contains("cases") || !table["cases"].is_array() || table["cases"].empty()) {
    throw std::runtime_error("fixture " + relative_path + " has no \"cases\" array");
  }
  return table["cases"];
}

// `text` with each {name}, {name:i} or {name:i:n} replaced by values[name],
// from character i on (n characters of it). Braces around any other name are
// left alone, so JSON text can carry placeholders. Throws std::out_of_range
// when i is past the end of the value.
inline std::string fill_placeholders(const std::string& text,
                                     const std::map<std::string, std::string>& values) {
  static const std::regex placeholder(R"(\{([a-z_]+)(?::(\d+))?(?::(\d+))?\})");
  std::string out;
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), placeholder), end; it != end; ++it) {
    const std::smatch& match = *it;
    const auto value = values.find(match[1].str());
    if (value == values.end()) continue;
    out.append(last, match[0].first);
    const std::size_t from = match[2].matched ? std::stoul(match[2].str()) : 0;
    const std::size_t count = match[3].matched ? std::stoul(match[3].str()) : std::string::npos;
    out += value->second.substr(from, count);
    last = match[0].second;
  }
  out.append(last, text.cend());
  return out;
}

}  // namespace ssp::harness
