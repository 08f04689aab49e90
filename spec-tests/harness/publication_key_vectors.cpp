#include "harness/publication_key_vectors.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "harness/fixture_files.hpp"

namespace ssp::harness {
namespace {

std::optional<std::string> nullable_text(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<std::string>();
}

}  // namespace

std::vector<PublicationKeyVector> publication_key_vectors() {
  const auto document =
      nlohmann::json::parse(read_fixture("known-answers/publication_keys.json"));
  std::vector<PublicationKeyVector> vectors;
  for (const auto& vector : document.at("vectors")) {
    const auto& c = vector.at("context");
    SegmentMetadata m;
    m.partition = c.at("partition").get<std::string>();
    m.log_epoch = c.at("logEpoch").get<std::string>();
    m.table = c.at("table").get<std::string>();
    m.schema_version = c.at("schemaVersion").get<std::int64_t>();
    const std::string media_type = c.at("mediaType").get<std::string>();
    if (media_type != "rows" && media_type != "sqlite") {
      throw std::runtime_error("publication_keys.json: media type " + media_type);
    }
    m.media_type = media_type == "rows" ? MediaType::rows : MediaType::sqlite;
    m.scope_digest = c.at("scopeDigest").get<std::string>();
    m.as_of_commit_seq = c.at("asOfCommitSeq").get<std::int64_t>();
    m.row_count = c.at("rowCount").get<std::int64_t>();
    m.row_cursor = nullable_text(c.at("rowCursor"));
    m.next_row_cursor = nullable_text(c.at("nextRowCursor"));
    vectors.push_back({vector.at("name").get<std::string>(), m,
                       vector.at("pubKey").get<std::string>()});
  }
  return vectors;
}

}  // namespace ssp::harness
