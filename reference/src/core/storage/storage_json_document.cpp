#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssp/encoding/json_text.hpp"
#include "ssp/storage/json_document.hpp"

namespace ssp::storage {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  std::size_t position() const { return at_; }
  void advance(std::size_t n = 1) { at_ += n; }
  bool take(char c) {
    if (peek() != c || done()) return false;
    ++at_;
    return true;
  }
  bool take(std::string_view literal) {
    if (text_.substr(at_, literal.size()) != literal) return false;
    at_ += literal.size();
    return true;
  }
  void skip_whitespace() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++at_;
  }
  std::string_view slice(std::size_t from) const { return text_.substr(from, at_ - from); }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

std::uint32_t hex_value(std::string_view four) {
  std::uint32_t value = 0;
  for (char c : four) {
    value <<= 4;
    if (is_digit(c))
      value |= static_cast<std::uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      value |= static_cast<std::uint32_t>(c - 'a' + 10);
    else
      value |= static_cast<std::uint32_t>(c - 'A' + 10);
  }
  return value;
}

void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out.push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (code_point >> 6)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3f)));
  } else if (code_point < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (code_point >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (code_point >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3f)));
  }
}

// Reads a string token at the cursor. With `decoded`, also unescapes it; a
// lone surrogate escape then fails (it has no UTF-8 form), which only the
// canonical BlobRef check asks for. Grammar alone accepts it, as JSON.parse.
bool read_string(Cursor& cursor, std::string* decoded) {
  if (!cursor.take('"')) return false;
  while (true) {
    if (cursor.done()) return false;
    const char c = cursor.peek();
    if (c == '"') {
      cursor.advance();
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) return false;
    if (c != '\\') {
      if (decoded) decoded->push_back(c);
      cursor.advance();
      continue;
    }
    cursor.advance();
    const char escape = cursor.peek();
    if (cursor.done()) return false;
    cursor.advance();
    static constexpr std::string_view kSimple = "\"\\/bfnrt";
    static constexpr std::string_view kMeaning = "\"\\/\b\f\n\r\t";
    if (const auto at = kSimple.find(escape); at != std::string_view::npos) {
      if (decoded) decoded->push_back(kMeaning[at]);
      continue;
    }
    if (escape != 'u') return false;
    const std::size_t start = cursor.position();
    for (int k = 0; k < 4; ++k) {
      if (!is_hex(cursor.peek()) || cursor.done()) return false;
      cursor.advance();
    }
    if (!decoded) continue;
    std::uint32_t unit = hex_value(cursor.slice(start));
    if (unit >= 0xdc00 && unit <= 0xdfff) return false;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (!cursor.take("\\u")) return false;
      const std::size_t low_start = cursor.position();
      for (int k = 0; k < 4; ++k) {
        if (!is_hex(cursor.peek()) || cursor.done()) return false;
        cursor.advance();
      }
      const std::uint32_t low = hex_value(cursor.slice(low_start));
      if (low < 0xdc00 || low > 0xdfff) return false;
      unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
    }
    append_utf8(*decoded, unit);
  }
}

bool read_number(Cursor& cursor) {
  cursor.take('-');
  if (cursor.take('0')) {
    // no further integer digits after a leading zero
  } else if (is_digit(cursor.peek()) && !cursor.done()) {
    while (is_digit(cursor.peek()) && !cursor.done()) cursor.advance();
  } else {
    return false;
  }
  if (cursor.take('.')) {
    if (!is_digit(cursor.peek()) || cursor.done()) return false;
    while (is_digit(cursor.peek()) && !cursor.done()) cursor.advance();
  }
  if (cursor.peek() == 'e' || cursor.peek() == 'E') {
    cursor.advance();
    if (!cursor.take('+')) cursor.take('-');
    if (!is_digit(cursor.peek()) || cursor.done()) return false;
    while (is_digit(cursor.peek()) && !cursor.done()) cursor.advance();
  }
  return true;
}

// An object key, the colon and the whitespace around it.
bool read_member_name(Cursor& cursor) {
  if (!read_string(cursor, nullptr)) return false;
  cursor.skip_whitespace();
  if (!cursor.take(':')) return false;
  cursor.skip_whitespace();
  return true;
}

// A canonical JSON string token: decodes, and JSON.stringify of the decoded
// value gives back exactly the same bytes.
std::optional<std::string> read_canonical_string(Cursor& cursor) {
  const std::size_t start = cursor.position();
  std::string decoded;
  if (!read_string(cursor, &decoded) || !is_well_formed_utf8(decoded)) return std::nullopt;
  std::string rendered;
  append_json_string(rendered, decoded);
  if (rendered != cursor.slice(start)) return std::nullopt;
  return decoded;
}

bool is_sha256_id(std::string_view id) {
  constexpr std::string_view kPrefix = "sha256:";
  if (id.size() != kPrefix.size() + 64 || id.substr(0, kPrefix.size()) != kPrefix) return false;
  for (char c : id.substr(kPrefix.size())) {
    if (!is_digit(c) && !(c >= 'a' && c <= 'f')) return false;
  }
  return true;
}

// A non-negative integer in canonical decimal within 2^53 − 1.
bool read_safe_length(Cursor& cursor) {
  constexpr std::uint64_t kMax = 9'007'199'254'740'991ULL;
  if (cursor.take('0')) return !is_digit(cursor.peek()) || cursor.done();
  if (!is_digit(cursor.peek()) || cursor.done()) return false;
  std::uint64_t value = 0;
  while (!cursor.done() && is_digit(cursor.peek())) {
    value = value * 10 + static_cast<std::uint64_t>(cursor.peek() - '0');
    if (value > kMax) return false;
    cursor.advance();
  }
  return true;
}

}  // namespace

bool is_json_document(std::string_view text) {
  Cursor cursor(text);
  std::vector<char> open;  // '{' or '[' for each container being read
  cursor.skip_whitespace();
  bool expect_value = true;
  while (true) {
    if (expect_value) {
      if (cursor.take('{')) {
        cursor.skip_whitespace();
        if (cursor.take('}')) {
          expect_value = false;
        } else {
          open.push_back('{');
          if (!read_member_name(cursor)) return false;
        }
        continue;
      }
      if (cursor.take('[')) {
        cursor.skip_whitespace();
        if (cursor.take(']'))
          expect_value = false;
        else
          open.push_back('[');
        continue;
      }
      const char c = cursor.peek();
      const bool ok = c == '"'   ? read_string(cursor, nullptr)
                      : c == 't' ? cursor.take("true")
                      : c == 'f' ? cursor.take("false")
                      : c == 'n' ? cursor.take("null")
                                 : read_number(cursor);
      if (!ok) return false;
      expect_value = false;
      continue;
    }
    cursor.skip_whitespace();
    if (open.empty()) return cursor.done();
    if (cursor.take(',')) {
      cursor.skip_whitespace();
      if (open.back() == '{' && !read_member_name(cursor)) return false;
      expect_value = true;
    } else if (cursor.take(open.back() == '{' ? '}' : ']')) {
      open.pop_back();
    } else {
      return false;
    }
  }
}

bool is_canonical_blob_ref(std::string_view text) {
  Cursor cursor(text);
  if (!cursor.take("{\"blobId\":")) return false;
  const auto blob_id = read_canonical_string(cursor);
  if (!blob_id || !is_sha256_id(*blob_id)) return false;
  if (!cursor.take(",\"byteLength\":") || !read_safe_length(cursor)) return false;
  if (cursor.take(",\"mediaType\":") && !read_canonical_string(cursor)) return false;
  if (cursor.take(",\"name\":") && !read_canonical_string(cursor)) return false;
  return cursor.take('}') && cursor.done();
}

}  // namespace ssp::storage
