// get ID: the whole record (every publication, unfiltered) and its bytes,
// exactly as the store's get() returns them.
#include "command.hpp"
#include "wire/segment_json.hpp"

namespace ssp::tools {
namespace {

std::string lowercase_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (const std::uint8_t byte : bytes) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0x0f]);
  }
  return hex;
}

int run_get(ToolContext& context, Arguments& arguments) {
  const bool with_bytes = !arguments.take_flag("--no-bytes");
  const std::string id = arguments.take_positional("ID");
  arguments.finish();
  // A malformed id is absent too: the store does not look it up (D10).
  const std::optional<StoredSegment> stored = context.store().get(id);
  if (!stored) {
    context.print({{"error", {{"code", "not_found"}, {"segmentId", id}}}});
    return kExitNegative;
  }
  nlohmann::ordered_json answer = wire::record_to_json(stored->record);
  if (with_bytes) answer["bytes"] = lowercase_hex(stored->bytes);
  context.print(answer);
  return kExitOk;
}

}  // namespace

Command get_command() {
  return {"get", "ID [--no-bytes]",
          "the record with every publication, and its bytes in lowercase hex", run_get};
}

}  // namespace ssp::tools
