// scope-digest SCOPES_JSON: the canonical scope JSON (§11.2) and its digest
// (§3.5) — what a client's X-Syncular-Scopes must hash to. Needs no database.
#include "command.hpp"
#include "ssp/scopes/scope_digest.hpp"
#include "ssp/scopes/scope_map.hpp"
#include "ssp/scopes/parse_scope_map.hpp"

namespace ssp::tools {
namespace {

int run_scope_digest(ToolContext& context, Arguments& arguments) {
  const std::string scopes = arguments.take_positional("SCOPES_JSON");
  arguments.finish();
  context.print(nlohmann::ordered_json::parse(scope_digest_report_json(parse_scope_map(scopes))));
  return kExitOk;
}

}  // namespace

Command scope_digest_command() {
  return {"scope-digest", "SCOPES_JSON",
          "the canonical JSON (§11.2) of a scope map and its digest (§3.5)", run_scope_digest};
}

}  // namespace ssp::tools
