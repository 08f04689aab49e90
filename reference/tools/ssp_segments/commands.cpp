#include "command.hpp"

namespace ssp::tools {

std::span<const Command> commands() {
  static const Command table[] = {
      stats_command(),
      get_command(),
      find_command(),
      verify_command(),
      scope_digest_command(),
      authorize_command(),
  };
  return table;
}

}  // namespace ssp::tools
