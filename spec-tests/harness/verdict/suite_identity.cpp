#include "harness/verdict/suite_identity.hpp"

#include "harness/catalog/spec_sections.hpp"
#include "harness/data/data_directory.hpp"
#include "harness/util/content_address.hpp"
#include "harness/util/file_text.hpp"
#include "wire/wire_json.hpp"

#ifndef SSP_SUITE_VERSION
#error "SSP_SUITE_VERSION must be the suite's version (spec-tests/CMakeLists.txt)"
#endif

namespace ssp::harness {
namespace {

// "sha256:" and the first 16 hex digits of the SHA-256 of `text`: short
// enough to read in a report's header, long enough that two revisions differ.
std::string short_digest(const std::string& text) {
  const std::string full = sha256_content_address(
      {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  return full.substr(0, std::string("sha256:").size() + 16);
}

}  // namespace

SuiteIdentity suite_identity(const std::vector<CatalogPage>& catalog_pages) {
  SuiteIdentity identity;
  identity.version = SSP_SUITE_VERSION;
  identity.oldest_protocol = wire::kOldestProtocolVersion;
  identity.newest_protocol = wire::kProtocolVersion;
  std::string sections;
  for (const std::string& id :
       listed_section_ids(read_text_file(data_path("fixtures/spec-sections.txt")))) {
    sections += id + "\n";
  }
  identity.ssp2_revision = short_digest(sections);
  std::string catalog;
  for (const CatalogPage& page : catalog_pages) catalog += page.file + "\n" + page.text;
  identity.catalog_digest = short_digest(catalog);
  return identity;
}

std::string suite_version_text(const std::string& program, const SuiteIdentity& identity) {
  return program + " " + identity.version + "\n" +
         "driver protocol: versions " + std::to_string(identity.oldest_protocol) + " to " +
         std::to_string(identity.newest_protocol) + "\n" +
         "SSP2 revision: " + identity.ssp2_revision + " (its section ids)\n" +
         "requirements catalog: " + identity.catalog_digest + "\n";
}

}  // namespace ssp::harness
