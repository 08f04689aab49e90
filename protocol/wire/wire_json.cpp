#include "wire/wire_json.hpp"

#include <limits>

#include "ssp/encoding/base64.hpp"
#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_text.hpp"

namespace ssp::wire {
namespace {

constexpr std::string_view kRaw = "$raw";

// Replaces {"$raw": base64} objects by the strings they stand for.
void unraw(Json& value, const std::string& path) {
  if (value.is_object()) {
    if (value.size() == 1 && value.contains(kRaw)) {
      const Json& encoded = value.at(kRaw);
      const auto bytes =
          encoded.is_string() ? base64_decode(encoded.get<std::string>()) : std::nullopt;
      if (!bytes) throw WireError(path + ".$raw: expected base64 text");
      value = std::string(bytes->begin(), bytes->end());
      return;
    }
    for (auto& [key, member] : value.items()) unraw(member, path + "." + key);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      unraw(value[i], path + "[" + std::to_string(i) + "]");
    }
  }
}

// The inverse: strings that are not UTF-8 become {"$raw": base64}.
void raw(Json& value) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (!is_well_formed_utf8(text)) {
      const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
      value = Json{{kRaw, base64_encode({data, text.size()})}};
    }
  } else if (value.is_structured()) {
    for (auto& member : value) raw(member);
  }
}

const char* kind_of(const Json& value) { return value.type_name(); }

[[noreturn]] void wrong(const std::string& path, const std::string& expected, const Json& value) {
  throw WireError(path + ": expected " + expected + ", got " + kind_of(value));
}

}  // namespace

Json parse_line(std::string_view line) {
  Json message;
  try {
    // The rule for JSON from outside, so both ends refuse the same lines
    // with a plain message (no library exception text, no megabytes of the
    // line) and never meet a number or a nesting depth the library throws
    // on or unraw() would recurse through.
    message = parse_json_input<Json>(line);
  } catch (const JsonSyntaxError& error) {
    throw WireError(std::string("not a JSON line: ") + error.what());
  }
  if (!message.is_object()) wrong("(message)", "a JSON object", message);
  unraw(message, "");
  return message;
}

std::string dump_line(Json message) {
  raw(message);
  return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Fields::Fields(const Json& object, std::string path) : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) wrong(path_.empty() ? "(value)" : path_, "an object", object_);
}

std::string Fields::path_of(std::string_view name) const {
  return path_.empty() ? std::string(name) : path_ + "." + std::string(name);
}

bool Fields::has(std::string_view name) const { return object_.contains(name); }

const Json& Fields::at(std::string_view name) const {
  const auto found = object_.find(name);
  if (found == object_.end()) throw WireError(path_of(name) + ": missing");
  return *found;
}

std::string Fields::text(std::string_view name) const { return text_value(at(name), path_of(name)); }

std::optional<std::string> Fields::nullable_text(std::string_view name) const {
  const Json& value = at(name);
  if (value.is_null()) return std::nullopt;
  return text_value(value, path_of(name));
}

std::int64_t Fields::integer(std::string_view name) const {
  return integer_value(at(name), path_of(name));
}

std::optional<std::int64_t> Fields::nullable_integer(std::string_view name) const {
  const Json& value = at(name);
  if (value.is_null()) return std::nullopt;
  return integer_value(value, path_of(name));
}

bool Fields::boolean(std::string_view name) const {
  const Json& value = at(name);
  if (!value.is_boolean()) wrong(path_of(name), "true or false", value);
  return value.get<bool>();
}

Bytes Fields::bytes(std::string_view name) const { return bytes_value(at(name), path_of(name)); }

Fields Fields::object(std::string_view name) const { return Fields(at(name), path_of(name)); }

const Json& Fields::array(std::string_view name) const {
  const Json& value = at(name);
  if (!value.is_array()) wrong(path_of(name), "an array", value);
  return value;
}

std::string text_value(const Json& value, const std::string& path) {
  if (!value.is_string()) wrong(path, "a string", value);
  return value.get<std::string>();
}

std::int64_t integer_value(const Json& value, const std::string& path) {
  if (value.is_number_unsigned()) {
    if (value.get<std::uint64_t>() >
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throw WireError(path + ": integer outside the signed 64-bit range");
    }
  } else if (!value.is_number_integer()) {
    wrong(path, "an integer", value);
  }
  return value.get<std::int64_t>();
}

std::vector<std::string> texts_value(const Json& value, const std::string& path) {
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < array_value(value, path).size(); ++i) {
    texts.push_back(text_value(value[i], element_path(path, i)));
  }
  return texts;
}

Bytes bytes_value(const Json& value, const std::string& path) {
  if (!value.is_string()) wrong(path, "base64 text", value);
  auto bytes = base64_decode(value.get<std::string>());
  if (!bytes) throw WireError(path + ": not canonical padded base64");
  return std::move(*bytes);
}

const Json& array_value(const Json& value, const std::string& path) {
  if (!value.is_array()) throw WireError(path + ": expected an array");
  return value;
}

std::string element_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

}  // namespace ssp::wire
