#include "storage_postgres_values.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "ssp/errors/errors.hpp"

namespace ssp::storage {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// NUMERIC's limits (PostgreSQL numeric.c): 131072 digits before the decimal
// point, 16383 after.
constexpr long kMaxIntegerDigits = 131'072;
constexpr long kMaxScale = 16'383;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The number token at `at` (valid JSON grammar), advancing past it; false when
// NUMERIC cannot hold it.
bool numeric_fits(std::string_view json, std::size_t& at) {
  if (json[at] == '-') ++at;
  long significant_integer_digits = 0;
  bool leading = true;
  while (at < json.size() && is_digit(json[at])) {
    if (json[at] != '0') leading = false;
    if (!leading) ++significant_integer_digits;
    ++at;
  }
  long fraction_digits = 0;
  if (at < json.size() && json[at] == '.') {
    ++at;
    while (at < json.size() && is_digit(json[at])) {
      ++fraction_digits;
      ++at;
    }
  }
  long exponent = 0;
  if (at < json.size() && (json[at] == 'e' || json[at] == 'E')) {
    ++at;
    bool negative = false;
    if (json[at] == '+' || json[at] == '-') negative = json[at++] == '-';
    while (at < json.size() && is_digit(json[at])) {
      if (exponent < 10'000'000) exponent = exponent * 10 + (json[at] - '0');
      ++at;
    }
    if (negative) exponent = -exponent;
  }
  return significant_integer_digits + exponent <= kMaxIntegerDigits &&
         fraction_digits - exponent <= kMaxScale;
}

// The string token at `at`, advancing past it; false on \u0000 or an unpaired
// surrogate escape.
bool string_fits(std::string_view json, std::size_t& at) {
  ++at;  // opening quote
  bool pending_high = false;
  while (json[at] != '"') {
    if (json[at] != '\\') {
      if (pending_high) return false;
      ++at;
      continue;
    }
    if (json[at + 1] != 'u') {
      if (pending_high) return false;
      at += 2;
      continue;
    }
    unsigned unit = 0;
    for (int k = 2; k < 6; ++k) unit = unit * 16 + static_cast<unsigned>(hex_digit(json[at + k]));
    at += 6;
    if (unit == 0) return false;
    const bool high = unit >= 0xd800 && unit <= 0xdbff;
    const bool low = unit >= 0xdc00 && unit <= 0xdfff;
    if (low != pending_high) return false;
    pending_high = high;
  }
  ++at;
  return !pending_high;
}

std::string double_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

}  // namespace

std::string bytea_text(const Bytes& bytes) {
  std::string out = "\\x";
  out.reserve(2 + bytes.size() * 2);
  for (std::uint8_t byte : bytes) {
    out.push_back(kHex[byte >> 4]);
    out.push_back(kHex[byte & 0x0f]);
  }
  return out;
}

bool jsonb_accepts(std::string_view json) {
  std::size_t at = 0;
  while (at < json.size()) {
    const char c = json[at];
    if (c == '"') {
      if (!string_fits(json, at)) return false;
    } else if (c == '-' || is_digit(c)) {
      if (!numeric_fits(json, at)) return false;
    } else {
      ++at;
    }
  }
  return true;
}

std::optional<std::string> projection_text(const RowValue& value, ColumnType type) {
  if (std::holds_alternative<std::monostate>(value)) return std::nullopt;
  if (const auto* text = std::get_if<std::string>(&value)) {
    if (type == ColumnType::json && !jsonb_accepts(*text)) return std::nullopt;
    return *text;
  }
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  if (const auto* number = std::get_if<double>(&value)) return double_text(*number);
  if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  return bytea_text(std::get<Bytes>(value));
}

RowValue projection_value(std::string_view text, ColumnType type) {
  switch (type) {
    case ColumnType::string:
    case ColumnType::json:
    case ColumnType::blob_ref:
      return std::string(text);
    case ColumnType::integer:
      return static_cast<std::int64_t>(std::stoll(std::string(text)));
    case ColumnType::floating:
      return std::strtod(std::string(text).c_str(), nullptr);
    case ColumnType::boolean:
      return text == "true" || text == "t";
    case ColumnType::bytes:
    case ColumnType::crdt: {
      if (text.size() < 2 || text.substr(0, 2) != "\\x" || text.size() % 2 != 0) {
        throw StorageError("PostgresServerStorage: bytea text is not in hex form");
      }
      Bytes bytes;
      for (std::size_t i = 2; i < text.size(); i += 2) {
        bytes.push_back(
            static_cast<std::uint8_t>(hex_digit(text[i]) * 16 + hex_digit(text[i + 1])));
      }
      return bytes;
    }
  }
  return std::monostate{};
}

}  // namespace ssp::storage
