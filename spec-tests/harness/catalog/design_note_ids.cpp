#include "harness/catalog/design_note_ids.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

namespace ssp::harness {
namespace {

// Within the section whose heading of `level` ("##" = 2) starts with
// `section`, every match of `pattern` is an id: `prefix` + its first group.
struct IdRule {
  int level;
  std::string section;
  std::regex pattern;
  std::string prefix;
};

std::vector<std::string> ids_by_rules(const std::string& path, const std::vector<IdRule>& rules) {
  std::ifstream in(path);
  const std::regex heading("^(#{2,3}) (\\S+)");
  std::map<int, std::string> current;  // heading level → its first word, e.g. "6.1"
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (std::regex_search(line, match, heading)) {
      const int level = static_cast<int>(match[1].length());
      current[level] = match[2];
      if (level == 2) current.erase(3);
      continue;
    }
    for (const IdRule& rule : rules) {
      if (current[rule.level] != rule.section) continue;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), rule.pattern);
           it != std::sregex_iterator(); ++it) {
        ids.push_back(rule.prefix + (*it)[1].str());
      }
    }
  }
  return ids;
}

}  // namespace

std::string design_notes_directory(const std::string& source_dir) {
  return (std::filesystem::path(source_dir) / ".." / "shared" / "design").lexically_normal();
}

std::optional<std::vector<std::string>> design_note_ids(const std::string& directory) {
  const std::filesystem::path dir(directory);
  for (const char* name : {"storage.md", "segments.md", "push.md"}) {
    if (!std::filesystem::is_regular_file(dir / name)) return std::nullopt;
  }
  std::vector<std::string> ids;
  const auto add = [&](const char* name, const std::vector<IdRule>& rules) {
    for (auto& id : ids_by_rules((dir / name).string(), rules)) ids.push_back(std::move(id));
  };
  add("storage.md", {{2, "6.", std::regex("^- \\*\\*([A-F]-\\d+) "), ""},
                     {2, "7.", std::regex("^(\\d+)\\. \\*\\*"), "INV-"}});
  add("segments.md", {{2, "4.", std::regex("\\*\\*§[0-9.]+-(R\\d+)"), ""},
                      {2, "4.", std::regex("^- \\*\\*((?:UPG|IMPL|ADM)-R\\d+)"), ""},
                      {2, "5.", std::regex("^(\\d+)\\. \\*\\*"), "SEG-INV-"}});
  add("push.md", {{3, "4.4", std::regex("^- \\*\\*(T-[A-Z-]+)\\*\\*"), "PUSH-"},
                  {3, "6.1", std::regex("^(\\d+)\\. \\["), "PUSH-"},
                  {3, "6.2", std::regex("^\\d+\\. \\*\\*(R\\d+) "), "PUSH-"},
                  {3, "6.3", std::regex("^- \\*\\*(P\\d+) "), "PUSH-"}});
  return ids;
}

}  // namespace ssp::harness
