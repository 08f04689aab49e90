#include "harness/races/answer_pattern.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace ssp::harness {
namespace {

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

bool is_positive_integer(std::string_view word) {
  return !word.empty() && word.front() != '0' &&
         std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

bool is_seq_placeholder(std::string_view word) {
  return word.size() >= 2 && word.front() == '?' &&
         std::all_of(word.begin() + 1, word.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

std::optional<std::string> answer_mismatch(std::string_view expected, std::string_view seen,
                                           SeqBindings& bindings) {
  const auto want = words_of(expected);
  const auto got = words_of(seen);
  if (want.size() != got.size()) return std::string();
  SeqBindings bound = bindings;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!is_seq_placeholder(want[i])) {
      if (want[i] != got[i]) return std::string();
      continue;
    }
    if (!is_positive_integer(got[i])) {
      return want[i] + " stands for a sequence number, and \"" + got[i] + "\" is none";
    }
    const auto [earlier, first] = bound.emplace(want[i], got[i]);
    if (!first && earlier->second != got[i]) {
      return want[i] + " met " + earlier->second + " before";
    }
  }
  bindings = std::move(bound);
  return std::nullopt;
}

}  // namespace ssp::harness
