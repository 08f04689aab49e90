#include "operator_message.hpp"

namespace ssp::tools {

std::string operator_message(std::string_view message) {
  std::string_view line = message.substr(0, message.find('\n'));
  const std::size_t end = line.find_last_not_of(" \t\r");
  return std::string(end == std::string_view::npos ? std::string_view() : line.substr(0, end + 1));
}

}  // namespace ssp::tools
