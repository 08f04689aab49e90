// The reference's plan_segment_write (design notes §3.2 step 5): the edits
// that turn a segment's stored side rows into the merged record. Every
// expected plan below is written by hand from the rule "stored rows that
// stay, in order, then the new ones; anything else is a full rewrite". What
// a candidate's store leaves in its tables is pinned by the conformance
// tests (PropModel, IMPL-R44…, the migration tests).
#include <gtest/gtest.h>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "ssp/segments/segment_write_plan.hpp"

namespace ssp::harness {
namespace {

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;
using Indexes = std::vector<std::size_t>;
using Digests = std::vector<std::string>;

SegmentPublication grant(const std::string& digest, std::int64_t expires_at_ms = kNow + kTtl) {
  return SegmentPublication{with_digest(base_metadata(), digest), 3, kNow, expires_at_ms};
}

// A merged record: its scope digests are those of its publications, the
// first one primary (the order does not matter to the plan).
SegmentRecord merged(std::vector<SegmentPublication> publications) {
  SegmentRecord record;
  record.segment_id = "sha256:0000000000000000000000000000000000000000000000000000000000000000";
  for (const auto& publication : publications) {
    record.scope_digests.push_back(publication.metadata.scope_digest);
  }
  record.publications = std::move(publications);
  return record;
}

TEST(SegmentWritePlan, WP_1_ANewPublicationIsAppendedAndNothingElseIsTouched) {
  record_spec("§5.1", "WP-1");
  const std::vector<SegmentPublication> stored = {grant("a"), grant("b")};
  const SegmentWritePlan plan =
      plan_segment_write(Digests{"a", "b"}, stored, merged({grant("a"), grant("b"), grant("c")}));
  ASSERT_FALSE(plan.full_rewrite);
  EXPECT_EQ(plan.removed, Indexes{});
  EXPECT_EQ(plan.updated, Pairs{});
  EXPECT_EQ(plan.appended, Indexes{2});
  EXPECT_EQ(plan.removed_digests, Digests{});
  EXPECT_EQ(plan.added_digests, Digests{"c"});
}

TEST(SegmentWritePlan, WP_1_ARefreshedPublicationIsUpdatedInPlace) {
  record_spec("§5.1", "WP-1");
  const std::vector<SegmentPublication> stored = {grant("a"), grant("b")};
  SegmentPublication refreshed = grant("b", kNow + 2 * kTtl);
  refreshed.metadata.row_count = 9;
  const SegmentWritePlan plan =
      plan_segment_write(Digests{"a", "b"}, stored, merged({grant("b"), grant("a")}));
  EXPECT_TRUE(plan.full_rewrite) << "a swap is not an in-place edit";

  const SegmentWritePlan refresh =
      plan_segment_write(Digests{"a", "b"}, stored, merged({grant("a"), refreshed}));
  ASSERT_FALSE(refresh.full_rewrite);
  EXPECT_EQ(refresh.updated, (Pairs{{1, 1}}));
  EXPECT_EQ(refresh.removed, Indexes{});
  EXPECT_EQ(refresh.appended, Indexes{});
  EXPECT_EQ(refresh.removed_digests, Digests{});
  EXPECT_EQ(refresh.added_digests, Digests{});

  const SegmentWritePlan unchanged =
      plan_segment_write(Digests{"a", "b"}, stored, merged({grant("a"), grant("b")}));
  ASSERT_FALSE(unchanged.full_rewrite);
  EXPECT_EQ(unchanged.updated, Pairs{}) << "an identical row is not rewritten";
}

TEST(SegmentWritePlan, WP_1_APrunedPublicationAndItsDigestAreDeleted) {
  record_spec("§5.1", "WP-1");
  const std::vector<SegmentPublication> stored = {grant("a", kNow), grant("b"), grant("c")};
  const SegmentWritePlan plan =
      plan_segment_write(Digests{"c", "a", "b"}, stored, merged({grant("b"), grant("c")}));
  ASSERT_FALSE(plan.full_rewrite);
  EXPECT_EQ(plan.removed, Indexes{0});
  EXPECT_EQ(plan.updated, Pairs{});
  EXPECT_EQ(plan.appended, Indexes{});
  EXPECT_EQ(plan.removed_digests, Digests{"a"});
  EXPECT_EQ(plan.added_digests, Digests{});
}

TEST(SegmentWritePlan, WP_1_PruneRefreshAndAppendInOnePlan) {
  record_spec("§5.1", "WP-1");
  const std::vector<SegmentPublication> stored = {grant("a", kNow), grant("b"), grant("c"),
                                                  grant("d", kNow)};
  const SegmentWritePlan plan = plan_segment_write(
      Digests{"a", "b", "c", "d"}, stored,
      merged({grant("b"), grant("c", kNow + 2 * kTtl), grant("e"), grant("f")}));
  ASSERT_FALSE(plan.full_rewrite);
  EXPECT_EQ(plan.removed, (Indexes{0, 3}));
  EXPECT_EQ(plan.updated, (Pairs{{2, 1}}));
  EXPECT_EQ(plan.appended, (Indexes{2, 3}));
  EXPECT_EQ(plan.removed_digests, (Digests{"a", "d"}));
  EXPECT_EQ(plan.added_digests, (Digests{"e", "f"}));
}

TEST(SegmentWritePlan, WP_1_AKeyIsAllNineFieldsNotTheDigestAlone) {
  record_spec("§5.1", "WP-1");
  const std::vector<SegmentPublication> stored = {grant("a")};
  SegmentPublication paged = grant("a");
  paged.metadata.row_cursor = "cursor-1";
  const SegmentWritePlan plan = plan_segment_write(Digests{"a"}, stored, merged({paged}));
  ASSERT_FALSE(plan.full_rewrite);
  EXPECT_EQ(plan.removed, Indexes{0});
  EXPECT_EQ(plan.appended, Indexes{0});
  EXPECT_EQ(plan.updated, Pairs{});
  EXPECT_EQ(plan.removed_digests, Digests{});
  EXPECT_EQ(plan.added_digests, Digests{});
}

TEST(SegmentWritePlan, WP_1_ALegacyRowHasNoPublicationRowsSoEveryPublicationIsInserted) {
  record_spec("§5.1", "WP-1");
  const SegmentWritePlan plan =
      plan_segment_write(Digests{"a"}, {}, merged({grant("a"), grant("b")}));
  ASSERT_FALSE(plan.full_rewrite);
  EXPECT_EQ(plan.appended, (Indexes{0, 1}));
  EXPECT_EQ(plan.removed, Indexes{});
  EXPECT_EQ(plan.added_digests, Digests{"b"});
}

TEST(SegmentWritePlan, WP_1_AnyOtherOrderFallsBackToAFullRewrite) {
  record_spec("§5.1", "WP-1");
  const std::vector<SegmentPublication> stored = {grant("a"), grant("b"), grant("c")};
  const Digests digests = {"a", "b", "c"};
  // A kept publication moves before another.
  EXPECT_TRUE(plan_segment_write(digests, stored, merged({grant("c"), grant("a")})).full_rewrite);
  // A new publication comes before a kept one.
  EXPECT_TRUE(plan_segment_write(digests, stored, merged({grant("x"), grant("a")})).full_rewrite);
  // The merged record holds one key twice.
  EXPECT_TRUE(
      plan_segment_write(digests, stored, merged({grant("a"), grant("a")})).full_rewrite);
  EXPECT_TRUE(
      plan_segment_write(digests, stored, merged({grant("x"), grant("x")})).full_rewrite);
  // The stored rows hold one key twice.
  const std::vector<SegmentPublication> doubled = {grant("a"), grant("a", kNow)};
  EXPECT_TRUE(plan_segment_write(Digests{"a"}, doubled, merged({grant("a")})).full_rewrite);
  // A full rewrite carries no edits.
  const SegmentWritePlan plan = plan_segment_write(digests, stored, merged({grant("b"), grant("a")}));
  EXPECT_TRUE(plan.removed.empty() && plan.updated.empty() && plan.appended.empty() &&
              plan.removed_digests.empty() && plan.added_digests.empty());
}

}  // namespace
}  // namespace ssp::harness
