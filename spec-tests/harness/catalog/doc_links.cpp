#include "harness/catalog/doc_links.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace ssp::harness {
namespace {

namespace fs = std::filesystem;

bool inside(const fs::path& root, const fs::path& path) {
  const fs::path relative = path.lexically_normal().lexically_relative(root.lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

// Where `target` (a path as written in `file`) leads, or "" when it leads
// nowhere inside `root`: resolved beside the file, or, for a path that is
// not "../"-relative, from the repository root (as README-style paths are).
std::string problem_with(const fs::path& root, const fs::path& file, const std::string& target) {
  if (target.starts_with("/")) return "an absolute path";
  const fs::path beside = (file.parent_path() / target).lexically_normal();
  if (!inside(root, beside)) return "a path outside the repository";
  if (fs::exists(beside)) return "";
  if (!target.starts_with("../") && fs::exists(root / target)) return "";
  return "a path to no file of the repository";
}

}  // namespace

std::vector<std::string> repository_documents(const std::string& root) {
  std::vector<std::string> files;
  if (fs::exists(fs::path(root) / "README.md"))
    files.push_back((fs::path(root) / "README.md").string());
  for (const char* folder : {"docs", "bench", "property-tests", "reference", "spec-tests"}) {
    const fs::path dir = fs::path(root) / folder;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".md") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> outside_references(const std::string& root, const std::string& file) {
  // Markdown link targets, then path-like words: "../…" anything, or
  // "…/….md" (a document named by its path).
  const std::regex link("\\]\\(([^)\\s#]+)(#[^)]*)?\\)");
  const std::regex path(
      "(?:^|[\\s`(\"'])((?:\\.\\./)+[A-Za-z0-9_./-]*|[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*\\.md)\\b");
  std::vector<std::string> problems;
  std::ifstream in(file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::vector<std::string> targets;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), link);
         it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1];
      if (target.find("://") == std::string::npos && !target.starts_with("mailto:"))
        targets.push_back(target);
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), path);
         it != std::sregex_iterator(); ++it) {
      targets.push_back((*it)[1]);
    }
    for (const auto& target : targets) {
      const std::string problem = problem_with(root, file, target);
      if (!problem.empty()) {
        problems.push_back(fs::path(file).lexically_relative(root).string() + ":" +
                           std::to_string(number) + ": " + target + " is " + problem);
      }
    }
  }
  return problems;
}

}  // namespace ssp::harness
