// The edge JSON cases (fixtures/cases/edge_json/edge_json.json, whose
// "about" says what each field means): values at the edge of what JSON.parse
// reads, placed into each site's document. Every site that parses JSON from
// outside runs every case; the case says where it is read rather than refused.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

class EdgeJsonCase {
 public:
  explicit EdgeJsonCase(nlohmann::json spec) : spec_(std::move(spec)) {}

  std::string name() const { return spec_.at("name").get<std::string>(); }
  // Whether a JSON.parse-compatible site reads the case (else it refuses it).
  bool accepted_at(std::string_view site) const { return listed("accepted_at", site); }
  // Whether the refusal at `site` is the reference's choice (decisions.md),
  // not what JSON.parse's outcome implies: spec-level tests skip it there.
  bool reference_only_at(std::string_view site) const { return listed("reference_only_at", site); }
  // The case's "reads_as" value, or null.
  nlohmann::json reads_as() const { return spec_.value("reads_as", nlohmann::json()); }

  // The site's document with this case in it: the case's own document for the
  // site if it has "documents", else `site_template` with {value} replaced by
  // the case's value (and `values`' other placeholders), then "after".
  // nullopt when the case has documents but none for this site.
  std::optional<std::string> document(std::string_view site, const std::string& site_template,
                                      std::map<std::string, std::string> values = {}) const;

 private:
  bool listed(const char* field, std::string_view site) const;
  std::string value() const;
  nlohmann::json spec_;
};

// Every case of the file.
std::vector<EdgeJsonCase> edge_json_cases();

// The template of `site` (the file's "sites"), for sites whose template is a
// JSON text with placeholders.
std::string edge_json_site(std::string_view site);

// The text of the schema site: the example schema fixture with its version
// replaced by {value}, as the file's "sites" describes.
std::string edge_json_schema_template();

// Whether `text` carries the JSON library's exception text.
inline bool has_json_library_text(std::string_view text) {
  return text.find("[json.exception") != std::string_view::npos;
}

}  // namespace ssp::harness
