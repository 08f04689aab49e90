// find KEY_JSON --now MS: the §5.3 reuse lookup, answered as the store's
// find() answers it (narrowed to the matching live publication).
#include "command.hpp"
#include "ssp/segments/find_key_text.hpp"
#include "wire/segment_json.hpp"

namespace ssp::tools {
namespace {

int run_find(ToolContext& context, Arguments& arguments) {
  const std::int64_t now_ms =
      parse_safe_integer("find: --now", arguments.take_required_option("--now"));
  const SegmentFindKey key = find_key_from_text(arguments.take_positional("KEY_JSON"));
  arguments.finish();
  const std::optional<SegmentRecord> found = context.store().find(key, now_ms);
  if (!found) {
    context.print({{"found", false}});
    return kExitNegative;
  }
  context.print(wire::record_to_json(*found));
  return kExitOk;
}

}  // namespace

Command find_command() {
  return {"find", "KEY_JSON --now MS",
          "the live publication reusable under a §5.3 key at MS, narrowed", run_find};
}

}  // namespace ssp::tools
