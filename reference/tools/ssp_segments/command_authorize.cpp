// authorize ID --partition P --epoch E --scopes JSON --allowed JSON --now MS
// [--tables JSON] [--if-none-match TAG]: the §5.5 download decision for a
// stored segment, with a fixed allowed-scope map standing in for the host's
// resolver — why a client gets forbidden, expired or not found.
#include "command.hpp"
#include "ssp/download/download_report.hpp"

namespace ssp::tools {
namespace {

int run_authorize(ToolContext& context, Arguments& arguments) {
  AuthorizeCommand command;
  command.partition = arguments.take_required_option("--partition");
  command.log_epoch = arguments.take_required_option("--epoch");
  command.scopes_json = arguments.take_required_option("--scopes");
  command.allowed_json = arguments.take_required_option("--allowed");
  command.now_ms = parse_safe_integer("authorize: --now", arguments.take_required_option("--now"));
  command.tables_json = arguments.take_option("--tables");
  command.if_none_match = arguments.take_option("--if-none-match");
  command.segment_id = arguments.take_positional("ID");
  arguments.finish();
  const auto decision =
      nlohmann::ordered_json::parse(run_authorize_command(context.store(), command));
  context.print(decision);
  const int status = decision["status"].get<int>();
  return status == 200 || status == 304 ? kExitOk : kExitNegative;
}

}  // namespace

Command authorize_command() {
  return {"authorize",
          "ID --partition P --epoch E --scopes JSON --allowed JSON --now MS [--tables JSON] "
          "[--if-none-match TAG]",
          "the §5.5 download decision for a stored segment, step by step", run_authorize};
}

}  // namespace ssp::tools
