#include <bit>
#include <cstring>
#include <limits>

#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/json_document.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/values/safe_integer.hpp"

namespace ssp::storage {
namespace {

std::string column_label(const ColumnLayout& column) {
  return "column " + quoted_name(column.name);
}

bool is_text_type(ColumnType type) {
  return type == ColumnType::string || type == ColumnType::json || type == ColumnType::blob_ref;
}
bool is_bytes_type(ColumnType type) {
  return type == ColumnType::bytes || type == ColumnType::crdt;
}

// Why a text value is not acceptable for its type, or nullptr.
const char* text_problem(ColumnType type, std::string_view text) {
  if (!is_well_formed_utf8(text)) return "the string is not well-formed UTF-8";
  if (type == ColumnType::json && !is_json_document(text)) return "the json value is not JSON";
  if (type == ColumnType::blob_ref && !(is_json_document(text) && is_canonical_blob_ref(text))) {
    return "the blob_ref value is not a canonical BlobRef (§5.9.1)";
  }
  return nullptr;
}

bool is_safe(std::int64_t value) { return value >= -kMaxSafeInteger && value <= kMaxSafeInteger; }

void put_u32(Bytes& out, std::size_t value, const ColumnLayout& column) {
  if (value > std::numeric_limits<std::uint32_t>::max()) {
    throw InvalidArgument("row codec: " + column_label(column) + " is longer than 2^32−1 bytes");
  }
  for (int shift = 0; shift < 32; shift += 8)
    out.push_back(static_cast<std::uint8_t>(value >> shift));
}

void put_u64(Bytes& out, std::uint64_t value) {
  for (int shift = 0; shift < 64; shift += 8)
    out.push_back(static_cast<std::uint8_t>(value >> shift));
}

// Reads values off the payload, naming the column on every failure.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> payload) : payload_(payload) {}

  std::size_t offset() const { return offset_; }
  std::size_t remaining() const { return payload_.size() - offset_; }

  std::span<const std::uint8_t> take(std::size_t n, const ColumnLayout& column) {
    if (remaining() < n) {
      throw RowDecodeError(column.name, column_label(column) + ": truncated input (needs " +
                                            std::to_string(n) + " bytes, " +
                                            std::to_string(remaining()) + " left)");
    }
    const auto out = payload_.subspan(offset_, n);
    offset_ += n;
    return out;
  }
  std::uint64_t little_endian(std::size_t width, const ColumnLayout& column) {
    std::uint64_t value = 0;
    const auto bytes = take(width, column);
    for (std::size_t i = 0; i < width; ++i)
      value |= static_cast<std::uint64_t>(bytes[i]) << (8 * i);
    return value;
  }
  std::span<const std::uint8_t> length_prefixed(const ColumnLayout& column) {
    return take(static_cast<std::size_t>(little_endian(4, column)), column);
  }

 private:
  std::span<const std::uint8_t> payload_;
  std::size_t offset_ = 0;
};

RowValue decode_value(Reader& reader, const ColumnLayout& column) {
  const auto fail = [&](const std::string& problem) -> RowDecodeError {
    return RowDecodeError(column.name, column_label(column) + ": " + problem);
  };
  switch (column.type) {
    case ColumnType::string:
    case ColumnType::json:
    case ColumnType::blob_ref: {
      const auto bytes = reader.length_prefixed(column);
      std::string text(bytes.begin(), bytes.end());
      if (const char* problem = text_problem(column.type, text)) throw fail(problem);
      return text;
    }
    case ColumnType::integer: {
      const auto value = static_cast<std::int64_t>(reader.little_endian(8, column));
      if (!is_safe(value)) {
        throw fail("integer " + std::to_string(value) + " is outside ±(2^53−1)");
      }
      return value;
    }
    case ColumnType::floating:
      return std::bit_cast<double>(reader.little_endian(8, column));
    case ColumnType::boolean: {
      const std::uint8_t byte = reader.take(1, column)[0];
      if (byte > 1) throw fail("boolean byte " + std::to_string(byte) + " is neither 0 nor 1");
      return byte == 1;
    }
    case ColumnType::bytes:
    case ColumnType::crdt: {
      const auto bytes = reader.length_prefixed(column);
      return Bytes(bytes.begin(), bytes.end());
    }
  }
  throw fail("unknown column type");
}

}  // namespace

bool value_matches_type(const RowValue& value, ColumnType type) {
  if (std::holds_alternative<std::monostate>(value)) return true;
  if (is_text_type(type)) return std::holds_alternative<std::string>(value);
  if (is_bytes_type(type)) return std::holds_alternative<Bytes>(value);
  switch (type) {
    case ColumnType::integer:
      return std::holds_alternative<std::int64_t>(value);
    case ColumnType::floating:
      return std::holds_alternative<double>(value);
    case ColumnType::boolean:
      return std::holds_alternative<bool>(value);
    default:
      return false;
  }
}

Bytes encode_row(std::span<const ColumnLayout> columns, const Row& row) {
  if (row.size() != columns.size()) {
    throw InvalidArgument("row codec: a row of " + std::to_string(row.size()) + " values for " +
                          std::to_string(columns.size()) + " columns");
  }
  Bytes out((columns.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const ColumnLayout& column = columns[i];
    const RowValue& value = row[i];
    const auto refuse = [&](const std::string& problem) {
      throw InvalidArgument("row codec: " + column_label(column) + ": " + problem);
    };
    if (!value_matches_type(value, column.type)) {
      refuse(std::string("value does not fit type ") + std::string(column_type_name(column.type)));
    }
    if (std::holds_alternative<std::monostate>(value)) {
      if (!column.nullable) refuse("NULL in a non-nullable column");
      out[i / 8] = static_cast<std::uint8_t>(out[i / 8] | (1u << (i % 8)));
      continue;
    }
    if (const auto* text = std::get_if<std::string>(&value)) {
      if (const char* problem = text_problem(column.type, *text)) refuse(problem);
      put_u32(out, text->size(), column);
      out.insert(out.end(), text->begin(), text->end());
    } else if (const auto* integer = std::get_if<std::int64_t>(&value)) {
      if (!is_safe(*integer))
        refuse("integer " + std::to_string(*integer) + " is outside ±(2^53−1)");
      put_u64(out, static_cast<std::uint64_t>(*integer));
    } else if (const auto* number = std::get_if<double>(&value)) {
      put_u64(out, std::bit_cast<std::uint64_t>(*number));
    } else if (const auto* flag = std::get_if<bool>(&value)) {
      out.push_back(*flag ? 1 : 0);
    } else if (const auto* bytes = std::get_if<Bytes>(&value)) {
      put_u32(out, bytes->size(), column);
      out.insert(out.end(), bytes->begin(), bytes->end());
    }
  }
  return out;
}

Row decode_row(std::span<const ColumnLayout> columns, std::span<const std::uint8_t> payload) {
  const std::size_t bitmap_size = (columns.size() + 7) / 8;
  if (payload.size() < bitmap_size) {
    throw RowDecodeError("", "truncated input: the null bitmap needs " +
                                 std::to_string(bitmap_size) + " bytes, the payload has " +
                                 std::to_string(payload.size()));
  }
  const auto is_null = [&](std::size_t i) { return (payload[i / 8] >> (i % 8)) & 1; };
  for (std::size_t bit = columns.size(); bit < bitmap_size * 8; ++bit) {
    if (is_null(bit)) {
      throw RowDecodeError("", "null bitmap padding bit " + std::to_string(bit) +
                                   " is set (the table has " + std::to_string(columns.size()) +
                                   " columns)");
    }
  }
  Reader reader(payload);
  reader.take(bitmap_size, columns.empty() ? ColumnLayout{} : columns.front());
  Row row;
  row.reserve(columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (is_null(i)) {
      if (!columns[i].nullable) {
        throw RowDecodeError(columns[i].name,
                             column_label(columns[i]) + ": null bit set on a non-nullable column");
      }
      row.emplace_back(std::monostate{});
      continue;
    }
    row.push_back(decode_value(reader, columns[i]));
  }
  if (reader.remaining() != 0) {
    throw RowDecodeError(
        "", std::to_string(reader.remaining()) + " trailing bytes after the last column" +
                (columns.empty() ? std::string() : " (" + column_label(columns.back()) + ")"));
  }
  return row;
}

}  // namespace ssp::storage
