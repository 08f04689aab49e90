// The wrong candidates are wrong in exactly the way wrong_candidates.hpp
// says, and right everywhere else, so the runs of HARNESS-2 … HARNESS-6 test
// what they claim to (docs/requirements/harness.md, HARNESS-8).
#include "harness/candidate/wrong_candidates.hpp"

#include <gmock/gmock.h>

#include "harness/fixtures/push_storage_fixtures.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

// A new store of `name` over memory (segments) and a fresh SQLite file
// (server storage), with one segment and one row already written through it.
struct WrongStores {
  std::unique_ptr<Candidate> candidate;
  std::unique_ptr<TestDatabase> database;
  std::unique_ptr<SegmentStore> segments;
  std::unique_ptr<storage::ServerStorage> storage;

  explicit WrongStores(const std::string& name)
      : candidate(make_wrong_candidate(name, reference_candidate())),
        database(create_test_database(Backend::sqlite)),
        segments(candidate->open_segment_store(DatabaseLocation{}, {})),
        storage(candidate->open_server_storage(database->location(), {})) {}
};

const Bytes kBytes = {1, 2, 3};

TEST(WrongCandidates, HARNESS_8_EachWrongCandidateBreaksWhatItsNameSays) {
  record_spec("Harness", "HARNESS-8");
  EXPECT_EQ(make_wrong_candidate("no such thing", reference_candidate()), nullptr);
  EXPECT_THAT(wrong_candidate_names(),
              ::testing::ElementsAre("finds-nothing", "wrong-bytes", "throws", "refuses-nothing",
                                     "long-urls", "leaks-a-scope"));
  const storage::StoredRow row = task_row("t1", "p1", "x", false);

  {
    SCOPED_TRACE("finds-nothing: lookups answer absent, writes work");
    WrongStores wrong("finds-nothing");
    EXPECT_EQ(wrong.candidate->name(), "wrong:finds-nothing");
    const SegmentRecord put = wrong.segments->put(base_metadata(), kBytes, kNow);
    EXPECT_FALSE(wrong.segments->get(put.segment_id));
    EXPECT_FALSE(wrong.segments->find(find_key_of(base_metadata()), kNow + 1));
    EXPECT_EQ(wrong.segments->stats().count, 1);
    wrong.storage->ensure_schema(example_compiled());
    wrong.storage->upsert_row("acme", "tasks", row);
    EXPECT_FALSE(wrong.storage->get_row("acme", "tasks", "t1"));
    EXPECT_FALSE(wrong.storage->read_projection("acme", "tasks", "t1"));
  }
  {
    SCOPED_TRACE("wrong-bytes: every answer right but the bytes");
    WrongStores wrong("wrong-bytes");
    const SegmentRecord put = wrong.segments->put(base_metadata(), kBytes, kNow);
    const auto got = wrong.segments->get(put.segment_id);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->record, put);
    EXPECT_NE(got->bytes, kBytes);
    const SegmentRecord empty = wrong.segments->put(base_metadata(), Bytes{}, kNow);
    const auto got_empty = wrong.segments->get(empty.segment_id);
    ASSERT_TRUE(got_empty);
    EXPECT_FALSE(got_empty->bytes.empty());
    EXPECT_TRUE(wrong.segments->find(find_key_of(base_metadata()), kNow + 1));
    wrong.storage->ensure_schema(example_compiled());
    wrong.storage->upsert_row("acme", "tasks", row);
    const auto stored = wrong.storage->get_row("acme", "tasks", "t1");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->row_id, row.row_id);
    EXPECT_NE(stored->payload, row.payload);
  }
  {
    SCOPED_TRACE("throws: every method throws");
    WrongStores wrong("throws");
    EXPECT_THROW(wrong.segments->put(base_metadata(), kBytes, kNow), std::runtime_error);
    EXPECT_THROW(wrong.segments->get("sha256:x"), std::runtime_error);
    EXPECT_THROW(wrong.segments->find(find_key_of(base_metadata()), kNow), std::runtime_error);
    EXPECT_THROW(wrong.segments->stats(), std::runtime_error);
    EXPECT_THROW(wrong.storage->ensure_schema(example_compiled()), std::runtime_error);
    EXPECT_THROW(wrong.storage->preview_schema(example_compiled()), std::runtime_error);
    EXPECT_THROW(wrong.storage->upsert_row("acme", "tasks", row), std::runtime_error);
    EXPECT_THROW(wrong.storage->get_row("acme", "tasks", "t1"), std::runtime_error);
    EXPECT_THROW(wrong.storage->read_projection("acme", "tasks", "t1"), std::runtime_error);
  }
  {
    SCOPED_TRACE("refuses-nothing: refusals become default answers, the rest works");
    WrongStores wrong("refuses-nothing");
    SegmentMetadata out_of_range = base_metadata();
    out_of_range.as_of_commit_seq = std::int64_t{1} << 60;
    EXPECT_EQ(wrong.segments->put(out_of_range, kBytes, kNow), SegmentRecord{});
    const SegmentRecord put = wrong.segments->put(base_metadata(), kBytes, kNow);
    EXPECT_TRUE(wrong.segments->get(put.segment_id));
    EXPECT_EQ(wrong.storage->get_row("acme", "tasks", "t1"), std::nullopt) << "unknown table";
    wrong.storage->ensure_schema(example_compiled());
    EXPECT_EQ(wrong.storage->ensure_schema(compiled(example_schema(), 1)), storage::SchemaReport{})
        << "an older schema is refused by the reference";
    wrong.storage->upsert_row("acme", "tasks", row);
    EXPECT_EQ(wrong.storage->get_row("acme", "tasks", "t1"), row);
  }
  {
    SCOPED_TRACE("long-urls: a mint past 15 minutes states its whole TTL, the rest works");
    WrongStores wrong("long-urls");
    const UrlSigningKey key{Bytes(32, 7), 0};
    SignedUrlArea& urls = wrong.candidate->signed_urls();
    const std::int64_t sixteen_minutes = kMaxSignedUrlTtlMs + 60'000;
    EXPECT_EQ(urls.mint(key, "sha256:x", "d", "p", kNow, sixteen_minutes).url_expires_at_ms,
              kNow + sixteen_minutes);
    const SignedSegmentUrl within = urls.mint(key, "sha256:x", "d", "p", kNow, 60'000);
    const SignedSegmentUrl reference =
        reference_candidate().signed_urls().mint(key, "sha256:x", "d", "p", kNow, 60'000);
    EXPECT_EQ(within.token, reference.token);
    EXPECT_EQ(within.url_expires_at_ms, reference.url_expires_at_ms);
    const SegmentRecord put = wrong.segments->put(base_metadata(), kBytes, kNow);
    EXPECT_EQ(wrong.segments->get(put.segment_id)->bytes, kBytes);
    wrong.storage->ensure_schema(example_compiled());
    wrong.storage->upsert_row("acme", "tasks", row);
    EXPECT_EQ(wrong.storage->get_row("acme", "tasks", "t1"), row);
  }
  {
    SCOPED_TRACE("leaks-a-scope: a window answers one change of another scope, the rest works");
    WrongStores wrong("leaks-a-scope");
    const SegmentRecord put = wrong.segments->put(base_metadata(), kBytes, kNow);
    EXPECT_EQ(wrong.segments->get(put.segment_id)->bytes, kBytes);
    wrong.storage->ensure_schema(example_compiled());
    const auto change = [&](const std::string& id, const std::string& project) {
      return storage::Change{"tasks", id, storage::ChangeOp::upsert, 1,
                             {{"project_id", project}}, row.payload};
    };
    auto tx = wrong.storage->begin("acme");
    tx->lock_partition_for_push();
    tx->append_commit(commit_entry("k1", {change("t1", "p1"), change("t2", "p2")}));
    tx->commit();
    const auto window = wrong.storage->read_table_window(
        "acme", storage::TableWindowQuery{"tasks", {{"project_id", {"p1"}}}, 0, 1, 10});
    ASSERT_EQ(window.size(), 1u);
    ASSERT_EQ(window[0].changes.size(), 2u) << "t1, and t2 of p2 leaked";
    EXPECT_EQ(window[0].changes[1].row_id, "t2");
    wrong.storage->upsert_row("acme", "tasks", row);
    EXPECT_EQ(wrong.storage->get_row("acme", "tasks", "t1"), row);
  }
}

}  // namespace
}  // namespace ssp::harness
