#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::storage {

std::string scopes_json(const std::map<std::string, std::string>& scopes) {
  std::vector<const std::pair<const std::string, std::string>*> entries;
  for (const auto& entry : scopes) entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(),
            [](const auto* a, const auto* b) { return utf16_less(a->first, b->first); });
  std::string out = "{";
  for (const auto* entry : entries) {
    if (out.size() > 1) out.push_back(',');
    append_json_string(out, entry->first);
    out.push_back(':');
    append_json_string(out, entry->second);
  }
  out.push_back('}');
  return out;
}

std::map<std::string, std::string> parse_scopes_json(std::string_view text,
                                                     const std::string& table) {
  const auto fail = [&]() {
    return StorageError("stored scopes of a row in table \"" + table +
                        "\" are not a JSON object of strings");
  };
  nlohmann::json parsed;
  try {
    parsed = parse_json_input<nlohmann::json>(text);
  } catch (const JsonSyntaxError&) {
    throw fail();
  }
  if (!parsed.is_object()) throw fail();
  std::map<std::string, std::string> scopes;
  for (const auto& [key, value] : parsed.items()) {
    if (!value.is_string()) throw fail();
    scopes.emplace(key, value.get<std::string>());
  }
  return scopes;
}

}  // namespace ssp::storage
