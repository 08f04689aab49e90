// The tables of a Markdown file, as the requirement documents write them:
// a header row, a separator row, then one row per line, every row starting
// with "| ". The catalog, the coverage tables and the id inventory are read
// through this, so each knows its tables by their header, not by position.
#pragma once

#include <string>
#include <vector>

namespace ssp::harness {

struct MarkdownTable {
  std::string file;                            // file name, for messages
  std::vector<std::string> header;             // trimmed header cells
  std::vector<std::vector<std::string>> rows;  // trimmed cells, as many as the row has
};

// Every table of the Markdown `text`, in text order; `file` names it in the
// tables, for messages.
std::vector<MarkdownTable> markdown_tables_of(const std::string& text, const std::string& file);

// Every table of the Markdown file at `path`, in file order. Throws
// std::runtime_error when the file cannot be read.
std::vector<MarkdownTable> read_markdown_tables(const std::string& path);

// `text` without leading and trailing blanks (spaces, tabs).
std::string trimmed(const std::string& text);

// The *.md files directly under `directory`, sorted by name.
std::vector<std::string> markdown_files(const std::string& directory);

}  // namespace ssp::harness
