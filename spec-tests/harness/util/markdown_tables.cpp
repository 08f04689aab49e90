#include "harness/util/markdown_tables.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ssp::harness {
namespace {

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 1;  // after the leading '|'
  for (std::size_t bar; (bar = line.find('|', start)) != std::string::npos; start = bar + 1) {
    cells.push_back(trimmed(line.substr(start, bar - start)));
  }
  return cells;
}

bool is_separator(const std::vector<std::string>& cells) {
  return !cells.empty() && std::all_of(cells.begin(), cells.end(), [](const std::string& cell) {
    return !cell.empty() && cell.find_first_not_of("-:") == std::string::npos;
  });
}

}  // namespace

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::vector<MarkdownTable> markdown_tables_of(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  std::vector<MarkdownTable> tables;
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("|")) {
      in_table = false;
      continue;
    }
    std::vector<std::string> cells = cells_of(line);
    if (!in_table) {
      tables.push_back(MarkdownTable{file, std::move(cells), {}});
      in_table = true;
    } else if (!(tables.back().rows.empty() && is_separator(cells))) {
      tables.back().rows.push_back(std::move(cells));
    }
  }
  return tables;
}

std::vector<MarkdownTable> read_markdown_tables(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return markdown_tables_of(text.str(), std::filesystem::path(path).filename().string());
}

std::vector<std::string> markdown_files(const std::string& directory) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".md") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace ssp::harness
