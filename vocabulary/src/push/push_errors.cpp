// A validator's rejections (push_types.hpp), whose code §6.7 keeps out of the
// protocol's namespaces.
#include <utility>

#include "ssp/errors/errors.hpp"
#include "ssp/push/push_types.hpp"

namespace ssp::push {
namespace {

// §6.7: a host's validator code may not claim a protocol namespace.
std::string checked_code(std::string code) {
  static constexpr std::string_view kReserved[] = {"sync.", "blob.", "operation.", "presence.",
                                                   "client."};
  if (code.empty()) throw InvalidArgument("a validation rejection needs a code");
  for (const auto prefix : kReserved) {
    if (code.starts_with(prefix)) {
      throw InvalidArgument("validation rejection code \"" + code + "\" uses the reserved " +
                            std::string(prefix) + " namespace");
    }
  }
  return code;
}

}  // namespace

ValidationRejection::ValidationRejection(std::string code, std::string message,
                                         std::optional<std::string> details_json)
    : SspError(std::move(message)),
      code_(checked_code(std::move(code))),
      details_json_(std::move(details_json)) {}

CommitValidationRejection::CommitValidationRejection(std::int64_t op_index, std::string code,
                                                     std::string message,
                                                     std::optional<std::string> details_json)
    : ValidationRejection(std::move(code), std::move(message), std::move(details_json)),
      op_index_(op_index) {}

}  // namespace ssp::push
