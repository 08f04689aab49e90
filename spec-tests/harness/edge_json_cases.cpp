#include "harness/edge_json_cases.hpp"

#include <stdexcept>

#include "harness/case_table.hpp"
#include "harness/fixture_files.hpp"

namespace ssp::harness {
namespace {

constexpr const char* kFile = "cases/edge_json/edge_json.json";

std::string from_hex(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

}  // namespace

bool EdgeJsonCase::listed(const char* field, std::string_view site) const {
  if (!spec_.contains(field)) return false;
  for (const auto& listed_site : spec_.at(field)) {
    if (listed_site.get<std::string>() == site) return true;
  }
  return false;
}

std::string EdgeJsonCase::value() const {
  if (spec_.contains("value")) return spec_.at("value").get<std::string>();
  if (spec_.contains("value_hex")) return from_hex(spec_.at("value_hex").get<std::string>());
  if (spec_.contains("nested_arrays")) {
    const auto count = spec_.at("nested_arrays").get<std::size_t>();
    return std::string(count, '[') + std::string(count, ']');
  }
  if (spec_.contains("string_bytes")) {
    return "\"" + std::string(spec_.at("string_bytes").get<std::size_t>(), 'a') + "\"";
  }
  throw std::runtime_error("edge JSON case \"" + name() + "\" has no value");
}

std::optional<std::string> EdgeJsonCase::document(std::string_view site,
                                                  const std::string& site_template,
                                                  std::map<std::string, std::string> values) const {
  std::string text;
  if (spec_.contains("documents")) {
    const auto& documents = spec_.at("documents");
    const auto found = documents.find(std::string(site));
    if (found == documents.end()) return std::nullopt;
    text = found->get<std::string>();
  } else {
    values["value"] = value();
    text = fill_placeholders(site_template, values);
  }
  return text + spec_.value("after", std::string());
}

std::vector<EdgeJsonCase> edge_json_cases() {
  std::vector<EdgeJsonCase> cases;
  for (const auto& c : read_case_table(kFile)) cases.emplace_back(c);
  return cases;
}

std::string edge_json_site(std::string_view site) {
  const nlohmann::json table = nlohmann::json::parse(read_fixture(kFile));
  return table.at("sites").at(std::string(site)).get<std::string>();
}

std::string edge_json_schema_template() {
  std::string schema = read_fixture("storage/example_v3.schema.json");
  const std::string version = "\"version\": 3";
  const auto at = schema.find(version);
  if (at == std::string::npos) throw std::runtime_error("the example schema has no \"version\": 3");
  return schema.replace(at, version.size(), "\"version\": {value}");
}

}  // namespace ssp::harness
