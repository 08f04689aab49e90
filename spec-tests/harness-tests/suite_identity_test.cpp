// What judged a run (harness/verdict/suite_identity.hpp): the catalog a run
// judges by and the digest its reports carry are made from one read of the
// catalog's pages.
#include "harness/verdict/suite_identity.hpp"

#include <gtest/gtest.h>

#include "harness/catalog/catalog.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/data/data_directory.hpp"

namespace ssp::harness {
namespace {

// A page whose one requirements row lists `test` under `id`.
CatalogPage page_listing(const std::string& id, const std::string& test) {
  return {"made.md", "| id | section | level | kind | requirement | tests |\n"
                     "|---|---|---|---|---|---|\n"
                     "| " + id + " | §5.1 | MUST | conformance | made up | `" + test + "` |\n"};
}

TEST(SuiteIdentity, HARNESS_61_TheCatalogAndItsDigestComeFromTheSamePages) {
  record_spec("Harness", "HARNESS-61");
  // The pages on disk: the catalog made from them is the one load_catalog reads.
  const std::vector<CatalogPage> pages = read_catalog_pages(data_path("requirements").string());
  ASSERT_FALSE(pages.empty());
  EXPECT_EQ(catalog_of(pages).size(),
            load_catalog(data_path("requirements").string()).size());
  // Pages in memory, never on disk: both halves read exactly these bytes.
  const std::vector<CatalogPage> first = {page_listing("R1", "Suite.R1_Test")};
  const std::vector<CatalogPage> second = {page_listing("R2", "Suite.R2_Test")};
  ASSERT_EQ(catalog_of(first).size(), 1u);
  EXPECT_EQ(catalog_of(first).front().id, "R1");
  EXPECT_EQ(catalog_of(second).front().id, "R2");
  const SuiteIdentity of_first = suite_identity(first);
  EXPECT_EQ(of_first.catalog_digest, suite_identity(first).catalog_digest);
  EXPECT_NE(of_first.catalog_digest, suite_identity(second).catalog_digest)
      << "the digest is not of the pages the catalog was made from";
  EXPECT_NE(of_first.catalog_digest, suite_identity(pages).catalog_digest);
  EXPECT_TRUE(of_first.catalog_digest.starts_with("sha256:"));
}

}  // namespace
}  // namespace ssp::harness
