#include "harness/catalog/test_code_includes.hpp"

#include <algorithm>
#include <sstream>

namespace ssp::harness {
namespace {

std::vector<std::string> arguments_of(const nlohmann::json& entry) {
  std::vector<std::string> arguments;
  if (const auto found = entry.find("arguments"); found != entry.end()) {
    for (const auto& argument : *found) arguments.push_back(argument.get<std::string>());
    return arguments;
  }
  std::istringstream words(entry.value("command", std::string()));
  for (std::string word; words >> word;) arguments.push_back(word);
  return arguments;
}

bool is_within(const std::string& directory, const std::string& folder) {
  return directory == folder || directory.starts_with(folder + "/");
}

}  // namespace

std::string target_of_compile_command(const nlohmann::json& entry) {
  // The object's path: "output" where the generator writes it, else -o's.
  std::string output = entry.value("output", std::string());
  const std::vector<std::string> arguments = arguments_of(entry);
  for (std::size_t i = 0; output.empty() && i + 1 < arguments.size(); ++i) {
    if (arguments[i] == "-o") output = arguments[i + 1];
  }
  const auto dir = output.find(".dir/");
  if (dir == std::string::npos) return "";
  const auto slash = output.rfind('/', dir);
  return output.substr(slash == std::string::npos ? 0 : slash + 1,
                       dir - (slash == std::string::npos ? 0 : slash + 1));
}

std::vector<std::string> include_directories_of(const nlohmann::json& entry) {
  static const std::vector<std::string> kFlags = {"-I", "-isystem", "-iquote"};
  const std::vector<std::string> arguments = arguments_of(entry);
  std::vector<std::string> directories;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    for (const std::string& flag : kFlags) {
      if (arguments[i] == flag && i + 1 < arguments.size()) {
        directories.push_back(arguments[++i]);
        break;
      }
      if (arguments[i].size() > flag.size() && arguments[i].starts_with(flag)) {
        directories.push_back(arguments[i].substr(flag.size()));
        break;
      }
    }
  }
  return directories;
}

std::vector<std::string> reference_headers_in_test_code(const nlohmann::json& compile_commands,
                                                        const std::string& source_root,
                                                        const std::vector<std::string>& test_targets) {
  const std::vector<std::string> reference_folders = {source_root + "/reference/include",
                                                      source_root + "/reference/src"};
  std::vector<std::string> problems;
  for (const auto& entry : compile_commands) {
    const std::string target = target_of_compile_command(entry);
    if (std::find(test_targets.begin(), test_targets.end(), target) == test_targets.end()) {
      continue;
    }
    for (const std::string& directory : include_directories_of(entry)) {
      for (const std::string& folder : reference_folders) {
        if (is_within(directory, folder)) {
          problems.push_back(target + ": " + entry.value("file", std::string()) +
                             " is compiled with " + directory);
        }
      }
    }
  }
  return problems;
}

const std::vector<std::string>& test_code_targets() {
  static const std::vector<std::string> targets = {
      "ssp_harness",   "ssp_race_tests",    "ssp-conformance",  "ssp-races",
      "ssp-faults",    "ssp-harness-tests", "ssp-driver-tests",
  };
  return targets;
}

}  // namespace ssp::harness
