// PostgreSQL array literals ("{"a",NULL,"b"}") for passing a list as one text
// parameter, cast in the statement (`$1::text[]`): shared by the segment
// store's scope and publication writes and the push session's read-ahead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssp::postgres {

// One column of several rows as an array literal: every element
// double-quoted with backslash and quote escaped (so any text, which never
// holds U+0000, round-trips), NULL for an absent value.
class ArrayLiteral {
 public:
  void add(const std::optional<std::string>& value) {
    text_ += text_.empty() ? "{" : ",";
    if (!value) {
      text_ += "NULL";
      return;
    }
    text_ += '"';
    for (const char c : *value) {
      if (c == '"' || c == '\\') text_ += '\\';
      text_ += c;
    }
    text_ += '"';
  }
  void add(std::int64_t value) { add(std::optional<std::string>(std::to_string(value))); }
  std::string text() const { return text_.empty() ? "{}" : text_ + "}"; }

 private:
  std::string text_;
};

// One text[] literal of `values`.
inline std::string text_array(const std::vector<std::string>& values) {
  ArrayLiteral literal;
  for (const auto& value : values) literal.add(value);
  return literal.text();
}

}  // namespace ssp::postgres
