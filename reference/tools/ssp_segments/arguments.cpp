#include "arguments.hpp"

#include <algorithm>
#include <charconv>

#include "ssp/segments/segment_validation.hpp"

namespace ssp::tools {
namespace {

bool is_option(std::string_view argument) { return argument.starts_with("--"); }

}  // namespace

Arguments::Arguments(std::string_view command, std::vector<std::string> arguments)
    : command_(command), arguments_(std::move(arguments)) {}

std::optional<std::string> Arguments::take_option(std::string_view name) {
  const auto found = std::find(arguments_.begin(), arguments_.end(), name);
  if (found == arguments_.end()) return std::nullopt;
  if (std::next(found) == arguments_.end()) {
    throw UsageError(command_ + ": option " + std::string(name) + " needs a value");
  }
  std::string value = *std::next(found);
  arguments_.erase(found, std::next(found, 2));
  if (std::find(arguments_.begin(), arguments_.end(), name) != arguments_.end()) {
    throw UsageError(command_ + ": option " + std::string(name) + " is given twice");
  }
  return value;
}

std::string Arguments::take_required_option(std::string_view name) {
  std::optional<std::string> value = take_option(name);
  if (!value) throw UsageError(command_ + ": option " + std::string(name) + " is required");
  return *value;
}

bool Arguments::take_flag(std::string_view name) {
  const auto found = std::find(arguments_.begin(), arguments_.end(), name);
  if (found == arguments_.end()) return false;
  arguments_.erase(found);
  if (std::find(arguments_.begin(), arguments_.end(), name) != arguments_.end()) {
    throw UsageError(command_ + ": option " + std::string(name) + " is given twice");
  }
  return true;
}

std::string Arguments::take_positional(std::string_view what) {
  const auto found = std::find_if_not(arguments_.begin(), arguments_.end(),
                                      [](const std::string& a) { return is_option(a); });
  if (found == arguments_.end()) throw UsageError(command_ + ": missing " + std::string(what));
  std::string value = *found;
  arguments_.erase(found);
  return value;
}

void Arguments::finish() const {
  if (arguments_.empty()) return;
  const std::string& first = arguments_.front();
  throw UsageError(command_ + ": unexpected " + (is_option(first) ? "option " : "argument ") +
                   first);
}

std::int64_t parse_safe_integer(std::string_view what, std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !is_safe_integer(value)) {
    throw UsageError(std::string(what) + " must be an integer within ±(2^53−1), got '" +
                     std::string(text) + "'");
  }
  return value;
}

}  // namespace ssp::tools
