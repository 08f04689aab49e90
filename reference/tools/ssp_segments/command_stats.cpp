// stats: the store's admin counters (distinct content addresses, expired
// ones included).
#include "command.hpp"
#include "wire/segment_json.hpp"

namespace ssp::tools {
namespace {

int run_stats(ToolContext& context, Arguments& arguments) {
  arguments.finish();
  context.print(wire::stats_to_json(context.store().stats()));
  return kExitOk;
}

}  // namespace

Command stats_command() {
  return {"stats", "", "counters over distinct segments: count, bytes, media split", run_stats};
}

}  // namespace ssp::tools
