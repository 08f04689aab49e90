// The framing of the driver protocol (docs/driver-protocol.md): one JSON
// object per line, text that is not UTF-8 as {"$raw": base64}, and strict
// field readers whose errors name the field path. Both ends use it: the
// reference driver to read requests, the harness to read answers.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/segments/segment_types.hpp"

namespace ssp::wire {

using Json = nlohmann::ordered_json;

// The protocol version this code speaks, and the oldest it still drives
// (docs/driver-protocol.md, "hello": a version-1 driver has no push methods).
inline constexpr std::int64_t kProtocolVersion = 3;
inline constexpr std::int64_t kOldestProtocolVersion = 1;

// A message that breaks the protocol's shapes: not JSON, not an object, a
// field missing or of the wrong kind. The message names the field path.
class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses one line into a JSON object and turns every {"$raw": base64} back
// into a string holding those bytes. Throws WireError.
Json parse_line(std::string_view line);

// The line for `message` (no trailing newline): strings that are not UTF-8
// are written as {"$raw": base64}. Object keys are always written as UTF-8
// (an ill-formed key gets U+FFFD; the protocol never needs one).
std::string dump_line(Json message);

// Reads the fields of one JSON object. Every WireError names `path.field`.
class Fields {
 public:
  // Throws WireError unless `object` is a JSON object.
  Fields(const Json& object, std::string path);

  bool has(std::string_view name) const;
  const Json& at(std::string_view name) const;
  std::string text(std::string_view name) const;
  // A string, or nothing for JSON null.
  std::optional<std::string> nullable_text(std::string_view name) const;
  // A JSON integer in the signed 64-bit range.
  std::int64_t integer(std::string_view name) const;
  std::optional<std::int64_t> nullable_integer(std::string_view name) const;
  bool boolean(std::string_view name) const;
  // A base64 string (docs/driver-protocol.md "Values").
  Bytes bytes(std::string_view name) const;
  Fields object(std::string_view name) const;
  // The array itself; read its elements with the element readers below.
  const Json& array(std::string_view name) const;
  std::string path_of(std::string_view name) const;
  // The object itself, to decode it whole with a value reader.
  const Json& whole() const { return object_; }

 private:
  const Json& object_;
  std::string path_;
};

// Element readers for arrays and free-standing values; `path` names the value.
std::string text_value(const Json& value, const std::string& path);
std::int64_t integer_value(const Json& value, const std::string& path);
// An array of strings.
std::vector<std::string> texts_value(const Json& value, const std::string& path);
Bytes bytes_value(const Json& value, const std::string& path);
// `value` when it is an array; throws WireError naming `path` otherwise.
const Json& array_value(const Json& value, const std::string& path);
// "path[index]", the path of an array element.
std::string element_path(const std::string& path, std::size_t index);

}  // namespace ssp::wire
