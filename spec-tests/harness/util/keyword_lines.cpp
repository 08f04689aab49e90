#include "harness/util/keyword_lines.hpp"

#include <algorithm>
#include <sstream>

namespace ssp::harness {

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string join_words(const std::vector<std::string>& words, std::size_t from) {
  std::string text;
  for (std::size_t i = from; i < words.size(); ++i) {
    if (!text.empty()) text += ' ';
    text += words[i];
  }
  return text;
}

namespace {

// Where the comment of `line` starts: at a '#' that begins a word, so that
// a word may hold one (a fault point "validate_row#2").
std::size_t comment_start(std::string_view line) {
  for (std::size_t at = line.find('#'); at != std::string_view::npos; at = line.find('#', at + 1)) {
    if (at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t') return at;
  }
  return line.size();
}

}  // namespace

void for_each_line(std::string_view text,
                   const std::function<void(int number, std::string_view line)>& line) {
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    const std::string_view raw = text.substr(start, end - start);
    line(++number, raw.substr(0, comment_start(raw)));
    start = end + 1;
  }
}

}  // namespace ssp::harness
