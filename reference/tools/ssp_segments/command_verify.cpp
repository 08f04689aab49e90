// verify: re-hashes every stored segment and checks the side tables against
// sync_segments (segment_verify.hpp decides what is corrupt).
#include "command.hpp"
#include "ssp/segments/segment_verify.hpp"

namespace ssp::tools {
namespace {

int run_verify(ToolContext& context, Arguments& arguments) {
  arguments.finish();
  const SegmentVerification result = verify_segments(context.inspector());
  context.print({{"segmentsChecked", result.segments_checked},
                 {"corrupt", result.corrupt()},
                 {"mismatchedIds", result.mismatched_ids},
                 {"orphanScopeIds", result.orphan_scope_ids},
                 {"orphanPublicationIds", result.orphan_publication_ids},
                 {"legacyIds", result.legacy_ids}});
  return result.corrupt() ? kExitNegative : kExitOk;
}

}  // namespace

Command verify_command() {
  return {"verify", "",
          "re-hash every segment, find orphan side-table rows; lists legacy rows", run_verify};
}

}  // namespace ssp::tools
