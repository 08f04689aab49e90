#include "harness/catalog/spec_error_table.hpp"

#include <deque>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/data/data_directory.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

// The table's rows and the text their views point into, built once.
struct SpecErrorTable {
  std::deque<std::string> texts;  // a deque: adding a text moves none of the others
  std::deque<ErrorCatalogEntry> rows;

  SpecErrorTable() {
    const auto document = nlohmann::json::parse(
        read_text_file(data_path("fixtures/cases/error_catalog/spec_10_2.json")));
    const auto text = [&](const nlohmann::json& value) -> std::string_view {
      return texts.emplace_back(value.get<std::string>());
    };
    for (const auto& row : document.at("codes")) {
      rows.push_back({text(row.at("code")), text(row.at("category")),
                      row.at("retryable").get<bool>(), text(row.at("recommendedAction")),
                      row.at("httpStatus").get<int>()});
    }
  }
};

}  // namespace

const ErrorCatalogEntry* spec_error_entry(std::string_view code) {
  static const SpecErrorTable table;  // thread-safe initialization
  for (const ErrorCatalogEntry& row : table.rows) {
    if (row.code == code) return &row;
  }
  return nullptr;
}

}  // namespace ssp::harness
