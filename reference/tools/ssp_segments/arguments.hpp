// The arguments after a command name, consumed by the command: options
// anywhere, positionals in order, and a final check that nothing is left.
// Take the options first: a positional is whatever is left that does not
// start with "--", so an option's value would otherwise pass for one.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::tools {

// A command line the tool cannot run; the message names the bad argument.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Arguments {
 public:
  Arguments(std::string_view command, std::vector<std::string> arguments);

  // Removes `--name VALUE` and returns VALUE, or nothing when absent. Throws
  // UsageError when VALUE is missing or the option is given twice.
  std::optional<std::string> take_option(std::string_view name);
  // take_option, but absent is a UsageError.
  std::string take_required_option(std::string_view name);
  // Removes `--name`; true when it was there.
  bool take_flag(std::string_view name);
  // Removes the first argument that is not an option. Throws UsageError
  // naming `what` (e.g. "ID") when there is none.
  std::string take_positional(std::string_view what);
  // Throws UsageError naming the first argument no one took.
  void finish() const;

 private:
  std::string command_;
  std::vector<std::string> arguments_;
};

// `text` as a JS safe integer (decimal, optional '-'); UsageError naming
// `what` otherwise.
std::int64_t parse_safe_integer(std::string_view what, std::string_view text);

}  // namespace ssp::tools
