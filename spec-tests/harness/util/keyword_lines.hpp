// Keyword lines, the format of the harness's data files (race schedules,
// `.schedule`; fault plans, `.plan`): a keyword and its words per line, a '#'
// that begins a word starting a comment.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

// `text` split at blanks.
std::vector<std::string> split_words(std::string_view text);

// words[from…] joined by one blank.
std::string join_words(const std::vector<std::string>& words, std::size_t from = 0);

// Calls `line(number, text)` for every line of `text`, numbered from 1, with
// its comment cut off: from a '#' at the line's start or after a blank.
void for_each_line(std::string_view text,
                   const std::function<void(int number, std::string_view line)>& line);

}  // namespace ssp::harness
