#include "harness/util/generated_page.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "harness/util/file_text.hpp"

namespace ssp::harness {

std::optional<std::string> settle_generated_page(const char* variable,
                                                 const std::function<std::string()>& render,
                                                 const std::string& regenerate_with) {
  const char* request = std::getenv(variable);
  if (request == nullptr || *request == '\0') return std::nullopt;
  const std::string text = request;
  const auto colon = text.find(':');
  const std::string mode = text.substr(0, colon);
  const std::string path = colon == std::string::npos ? "" : text.substr(colon + 1);
  if ((mode != "check" && mode != "write") || path.empty()) {
    return std::string(variable) + "=" + text + ": expected check:PATH or write:PATH";
  }
  std::string page;
  try {
    page = render();
  } catch (const std::exception& problem) {
    return problem.what();
  }
  if (mode == "write") {
    std::ofstream out(path);
    out << page;
    if (!out) return "cannot write " + path;
    return std::nullopt;
  }
  if (file_text_or_empty(path) != page) {
    return path + " differs from what this run saw: regenerate it with " + regenerate_with +
           " and read the difference before committing it";
  }
  return std::nullopt;
}

}  // namespace ssp::harness
