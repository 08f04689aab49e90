#include "harness/catalog/reference_rule_use.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "harness/catalog/source_folders.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

namespace fs = std::filesystem;

// The reference headers a conformance test or property may include directly:
// the candidate's contracts (the stores, the server storage and its push
// transactions), the value types they are written in, and the errors they
// throw. Several also declare rule functions; the name check keeps those out.
const std::set<std::string> kDataHeaders = {
    "ssp/errors/errors.hpp",
    "ssp/errors/error_catalog.hpp",  // error_code constants, ErrorEntry
    "ssp/scopes/scope_map.hpp",
    "ssp/scopes/scope_resolution.hpp",  // EffectiveScopes, the resolver interface
    "ssp/download/segment_download.hpp",  // the §5.5 request and outcome types
    "ssp/segments/segment_store.hpp",
    "ssp/segments/segment_store_options.hpp",
    "ssp/segments/segment_types.hpp",
    "ssp/segments/segment_validation.hpp",  // kMaxSafeInteger
    "ssp/download/signed_url.hpp",          // the §5.4 token types and refusals
    "ssp/push/push_pipeline.hpp",  // the push request and hook types
    "ssp/storage/push_result.hpp",
    "ssp/push/remote_command.hpp",  // the command request, mutation and error types
    "ssp/storage/column_layout.hpp",
    "ssp/storage/commit_log.hpp",
    "ssp/storage/push_transaction.hpp",
    "ssp/storage/row_codec.hpp",  // Row, RowValue
    "ssp/storage/schema.hpp",
    "ssp/storage/server_storage.hpp",
    "ssp/storage/storage_errors.hpp",
    "ssp/storage/stored_row.hpp",
    // The vocabulary's headers that came out of mixed ones (/vocabulary/).
    "ssp/values/bytes.hpp",
    "ssp/values/safe_integer.hpp",
    "ssp/errors/protocol_error.hpp",
    "ssp/download/signed_url_verdict.hpp",
    "ssp/storage/row.hpp",
    "ssp/storage/schema_report.hpp",
    "ssp/push/push_types.hpp",
    "ssp/push/command_types.hpp",
};

// Reference functions that are no rule: names of enumerators (for messages
// and tallies) and the projection of metadata onto its seven key fields.
const std::set<std::string> kDataFunctions = {
    "column_type_name",    "download_step_name",     "ensure_hook_point_name",
    "find_key_of",         "media_type_name",        "push_hook_point_name",
    "refusal_reason_name", "sqlite_durability_name", "token_refusal_name",
};

// Qualifiers that name the reference's namespaces.
const std::set<std::string> kReferenceNamespaces = {"ssp", "storage", "push"};

// Files of the harness that are, or serve, a candidate.
bool is_candidate_side(const std::string& name) {
  return name.starts_with("reference_") || name.starts_with("wrong_candidates") ||
         name.starts_with("driver_") || name == "candidate_selection.cpp";
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// `text` with comments and string and character literals (raw ones
// included) blanked out; newlines kept, so line numbers hold.
std::string code_only(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  const auto keep_newlines = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < text.size(); ++k) {
      if (text[k] == '\n') out += '\n';
    }
  };
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '/' && next == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && next == '*') {
      const std::size_t end = text.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? text.size() : end + 2;
      keep_newlines(i, stop);
      i = stop;
    } else if (c == 'R' && next == '"' &&
               (i == 0 || !is_identifier_char(text[i - 1]) || text[i - 1] == '8' ||
                text[i - 1] == 'u' || text[i - 1] == 'U' || text[i - 1] == 'L')) {
      const std::size_t open = text.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = text.find(close, open + 1);
      const std::size_t stop = end == std::string::npos ? text.size() : end + close.size();
      keep_newlines(i, stop);
      out += "\"\"";
      i = stop;
    } else if (c == '"' ||
               (c == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(text[i - 1]))))) {
      // A quote after a hex digit is a digit separator (1'000), not a literal.
      std::size_t k = i + 1;
      while (k < text.size() && text[k] != c && text[k] != '\n') k += text[k] == '\\' ? 2 : 1;
      out += c;
      out += c;
      i = std::min(k + 1, text.size());
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool accepted_for(const std::vector<AcceptedUse>& accepted, const std::string& file,
                  const std::string& what) {
  return std::any_of(accepted.begin(), accepted.end(),
                     [&](const AcceptedUse& use) { return use.file == file && use.what == what; });
}

// The qualifier right before position `at` of `line` ("storage" in
// "storage::f"), "" when the name is unqualified, "." for a member access.
std::string qualifier_before(const std::string& line, std::size_t at) {
  std::size_t k = at;
  while (k > 0 && line[k - 1] == ' ') --k;
  if (k >= 1 && line[k - 1] == '.') return ".";
  if (k >= 2 && line[k - 2] == '-' && line[k - 1] == '>') return ".";
  if (k < 2 || line[k - 1] != ':' || line[k - 2] != ':') return "";
  std::size_t end = k - 2;
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(line[begin - 1])) --begin;
  return begin == end ? "::" : line.substr(begin, end - begin);
}

}  // namespace

ReferenceRules reference_rules(const std::string& include_root) {
  // An unindented declaration: a return type, then the name and its "(".
  static const std::regex kDeclaration(
      R"(^(?!(?:return|using|friend|template|struct|class|enum|namespace|static_assert|typedef)\b))"
      R"((?:inline |constexpr |\[\[nodiscard\]\] )*[A-Za-z_][\w:<>, *&]*?[ *&](\w+)\()");
  ReferenceRules rules;
  for (const auto& entry : fs::recursive_directory_iterator(include_root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".hpp") continue;
    const std::string header = fs::relative(entry.path(), include_root).generic_string();
    for (const std::string& line : lines_of(code_only(file_text_or_empty(entry.path())))) {
      std::smatch match;
      if (!std::regex_search(line, match, kDeclaration)) continue;
      const std::string name = match[1];
      if (name.starts_with("operator") || kDataFunctions.contains(name)) continue;
      rules.emplace(name, header);
    }
  }
  return rules;
}

std::vector<std::string> conformance_sources(const std::string& root) {
  std::vector<std::string> files;
  const auto add = [&](const fs::path& directory, bool recursive, bool headers) {
    const auto consider = [&](const fs::directory_entry& entry) {
      if (!entry.is_regular_file()) return;
      const std::string extension = entry.path().extension().string();
      if (extension != ".cpp" && !(headers && extension == ".hpp")) return;
      if (is_candidate_side(entry.path().filename().string())) return;
      files.push_back(fs::relative(entry.path(), root).generic_string());
    };
    if (recursive) {
      for (const auto& entry : fs::recursive_directory_iterator(directory)) consider(entry);
    } else {
      for (const auto& entry : fs::directory_iterator(directory)) consider(entry);
    }
  };
  for (const std::string& folder : conformance_test_folders()) {
    add(fs::path(root) / folder, false, false);
  }
  for (const std::string& folder : property_test_folders()) {
    add(fs::path(root) / folder, false, true);
  }
  add(fs::path(root) / "spec-tests" / "harness", true, true);
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> reference_rule_uses(const std::string& file, const std::string& text,
                                             const ReferenceRules& rules,
                                             const std::vector<AcceptedUse>& accepted) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*"(ssp/[^"]+)\")");
  std::vector<std::string> problems;
  const auto raw_lines = lines_of(text);
  for (std::size_t n = 0; n < raw_lines.size(); ++n) {
    std::smatch match;
    if (!std::regex_search(raw_lines[n], match, kInclude)) continue;
    const std::string header = match[1];
    if (kDataHeaders.contains(header) || accepted_for(accepted, file, header)) continue;
    problems.push_back(file + ":" + std::to_string(n + 1) + ": includes " + header +
                       ", a header of the reference's rules; include only its data and contract "
                       "headers");
  }
  const auto code_lines = lines_of(code_only(text));
  for (std::size_t n = 0; n < code_lines.size(); ++n) {
    const std::string& line = code_lines[n];
    if (line.find_first_not_of(" \t") != std::string::npos &&
        line[line.find_first_not_of(" \t")] == '#') {
      continue;  // preprocessor lines
    }
    for (std::size_t i = 0; i < line.size();) {
      if (!is_identifier_char(line[i]) || (i > 0 && is_identifier_char(line[i - 1]))) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < line.size() && is_identifier_char(line[end])) ++end;
      const std::string name = line.substr(i, end - i);
      std::size_t after = end;
      while (after < line.size() && line[after] == ' ') ++after;
      const auto rule = rules.find(name);
      if (rule != rules.end() && after < line.size() && line[after] == '(') {
        const std::string qualifier = qualifier_before(line, i);
        const bool reference =
            qualifier.empty() || qualifier == "::" || kReferenceNamespaces.contains(qualifier);
        if (reference && !accepted_for(accepted, file, name)) {
          problems.push_back(file + ":" + std::to_string(n + 1) + ": " + name +
                             "(…) is the reference's rule (" + rule->second +
                             "); take the expected value from a literal, a known-answer vector, "
                             "the candidate or a model in test code (a test helper of that "
                             "name: rename it)");
        }
      }
      i = end;
    }
  }
  return problems;
}

std::vector<std::string> stale_accepted_uses(const std::string& root, const ReferenceRules& rules,
                                             const std::vector<AcceptedUse>& accepted) {
  std::vector<std::string> stale;
  for (const AcceptedUse& use : accepted) {
    const fs::path path = fs::path(root) / use.file;
    const std::string text = file_text_or_empty(path);
    // The entry matters if the file without it reports `what`.
    const auto without = reference_rule_uses(use.file, text, rules);
    const bool matches = std::any_of(without.begin(), without.end(), [&](const std::string& p) {
      return p.find(": includes " + use.what + ",") != std::string::npos ||
             p.find(": " + use.what + "(…)") != std::string::npos;
    });
    if (!matches) {
      stale.push_back(use.file + ": the accepted use of " + use.what +
                      " matches nothing any more; remove its entry");
    }
  }
  return stale;
}

const std::vector<AcceptedUse>& accepted_reference_uses() {
  static const std::vector<AcceptedUse> accepted = {
      // The Candidate interface's accessor of the error catalog area shares
      // the name of the reference's table; tests reach it as a member.
      {"spec-tests/harness/candidate/candidate.hpp", "error_catalog",
       "the area accessor's declaration"},
      // The harness reads the candidate's expectations file as upstream's
      // JSON.parse would (edge JSON, HARNESS-22); no expected value comes of it.
      {"spec-tests/harness/verdict/expectations.cpp", "ssp/encoding/json_input.hpp",
       "reads the expectations file"},
  };
  return accepted;
}

}  // namespace ssp::harness
