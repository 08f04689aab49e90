// Round trips of the reference PostgreSQL segment store (issue 11), counted
// from outside the store by a relay that reads the server's ReadyForQuery
// messages (relay/postgres_relay.hpp). A PostgreSQL put is
// bound by its round trips; these tests pin how many each kind of put makes.
// Every count is recorded as a test property, so the JSON output shows them.
//
// The store prepares its statements on first use (libpqxx sends the PREPARE
// when a prepared statement first runs), one round trip each; a long-lived
// connection pays that once. So each operation is measured the second time
// its kind runs on the connection, after a warm-up on other data whose count
// is recorded too (`…_first_use`).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "relay/postgres_relay.hpp"
#include "harness/backends/test_database.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "ssp/postgres/postgres_segment_store.hpp"

namespace ssp::harness {
namespace {

// A 1 KiB payload, distinct per seed.
Bytes kibibyte_payload(std::uint8_t seed) {
  Bytes bytes(1024);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::uint8_t>((i * 131 + 17 + seed) % 251);
  }
  bytes[0] = seed;
  return bytes;
}

class PostgresPutRoundTrips : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto reason = backend_unavailable(Backend::postgres)) {
      if (postgres_required()) FAIL() << "SSP_REQUIRE_PG=1 but " << *reason;
      GTEST_SKIP() << *reason;
    }
    database_ = create_test_database(Backend::postgres);
    proxy_ = std::make_unique<PostgresRelay>(database_->location().pg_dsn);
  }

  // A store in the test's fresh schema whose connection goes through the relay.
  std::unique_ptr<SegmentStore> open_store() {
    return open_postgres_segment_store(proxy_->dsn(), database_->location().pg_schema);
  }

  // Round trips `operation` makes, recorded under `name`.
  template <typename Operation>
  std::int64_t count(const std::string& name, Operation&& operation) {
    const std::int64_t before = proxy_->round_trips();
    operation();
    const std::int64_t made = proxy_->round_trips() - before;
    RecordProperty(name, static_cast<int>(made));
    return made;
  }

  std::unique_ptr<TestDatabase> database_;
  std::unique_ptr<PostgresRelay> proxy_;
};

// The counter against a client that is not the store: libpqxx's
// nontransaction sends each statement as one simple Query.
TEST_F(PostgresPutRoundTrips, SEG_RT_1_TheCounterCountsOneRoundTripPerStatementOfAnotherClient) {
  record_spec("§5.1", "SEG-RT-1");
  std::unique_ptr<pqxx::connection> first;
  const std::int64_t requests_before = proxy_->request_round_trips();
  const std::int64_t connect =
      count("connect", [&] { first = std::make_unique<pqxx::connection>(proxy_->dsn()); });
  EXPECT_GE(connect, 1) << "a startup handshake ends with ReadyForQuery";
  EXPECT_EQ(proxy_->request_round_trips(), requests_before)
      << "a handshake is no request's round trip (what a cut numbers)";

  std::string small;
  std::size_t large = 0;
  const std::int64_t three = count("three_statements", [&] {
    pqxx::nontransaction work(*first);
    small = work.exec("SELECT 1 + 1")[0][0].c_str();
    work.exec("CREATE TEMPORARY TABLE round_trip_probe(x INTEGER)");
    // An answer far larger than one read: the relay follows the framing
    // across reads, or it would count a 'Z' inside the text.
    large = work.exec("SELECT repeat('Z', 1000000)")[0][0].size();
  });
  EXPECT_EQ(small, "2");
  EXPECT_EQ(large, 1'000'000u);
  EXPECT_EQ(three, 3);
  EXPECT_EQ(proxy_->request_round_trips() - requests_before, 3);

  // A second client through the same relay is counted too.
  pqxx::connection second(proxy_->dsn());
  const std::int64_t both = count("one_statement_on_each_of_two_connections", [&] {
    pqxx::nontransaction(second).exec("SELECT 1");
    pqxx::nontransaction(*first).exec("SELECT 1");
  });
  EXPECT_EQ(both, 2);
}

// The one-statement insert of a new id: no read first, no BEGIN/COMMIT.
TEST_F(PostgresPutRoundTrips, SEG_RT_1_APutOfANewIdTakesOneRoundTrip) {
  record_spec("§5.1", "SEG-RT-1");
  const auto store = open_store();
  count("put_new_first_use", [&] {
    store->put(with_digest(base_metadata(), "digest-warm"), kibibyte_payload(1), kNow);
  });
  const Bytes bytes = kibibyte_payload(2);
  SegmentRecord record;
  const std::int64_t made = count("put_new_round_trips", [&] {
    record = store->put(with_digest(base_metadata(), "digest-new"), bytes, kNow);
  });
  ASSERT_EQ(record.publications.size(), 1u);
  EXPECT_EQ(record.byte_length, static_cast<std::int64_t>(bytes.size()));
  EXPECT_EQ(made, 1);
}

// What a merge, a repeat and a get cost. A put that finds its id reads the
// record and then writes, so it cannot be one round trip: the new-id insert
// that finds the id taken, BEGIN, the id's lock, the read, the byte
// comparison, the top row's update, the side rows' writes (a merge inserts a
// scope and a publication, a repeat updates its publication), COMMIT. A get
// is one statement (bench/README.md, changes 3 and 7).
TEST_F(PostgresPutRoundTrips, SEG_RT_1_MergeRepeatAndGetRoundTrips) {
  record_spec("§5.1", "SEG-RT-1");
  const auto store = open_store();
  // The warm-up: the same sequence on another segment.
  const Bytes warm = kibibyte_payload(3);
  const SegmentRecord warm_first =
      store->put(with_digest(base_metadata(), "digest-a"), warm, kNow);
  count("put_merge_first_use",
        [&] { store->put(with_digest(base_metadata(), "digest-b"), warm, kNow + 1); });
  count("put_repeat_first_use",
        [&] { store->put(with_digest(base_metadata(), "digest-b"), warm, kNow + 2); });
  count("get_first_use", [&] { store->get(warm_first.segment_id); });

  const Bytes bytes = kibibyte_payload(4);
  const SegmentRecord first = store->put(with_digest(base_metadata(), "digest-a"), bytes, kNow);
  ASSERT_EQ(first.publications.size(), 1u);

  SegmentRecord merged;
  const std::int64_t merge = count("put_merge_round_trips", [&] {
    merged = store->put(with_digest(base_metadata(), "digest-b"), bytes, kNow + 1);
  });
  ASSERT_EQ(merged.segment_id, first.segment_id);
  EXPECT_EQ(merged.publications.size(), 2u);
  EXPECT_EQ(merge, 9);

  SegmentRecord repeated;
  const std::int64_t repeat = count("put_repeat_round_trips", [&] {
    repeated = store->put(with_digest(base_metadata(), "digest-b"), bytes, kNow + 2);
  });
  ASSERT_EQ(repeated.segment_id, first.segment_id);
  EXPECT_EQ(repeated.publications.size(), 2u);
  EXPECT_EQ(repeat, 8);

  std::optional<StoredSegment> got;
  const std::int64_t get = count("get_round_trips", [&] { got = store->get(first.segment_id); });
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->bytes, bytes);
  EXPECT_EQ(got->record.publications.size(), 2u);
  EXPECT_EQ(get, 1);
}

// Needs no server: a relay that cannot reach its server says so at once,
// rather than in every client that connects through it.
TEST(PostgresRoundTripRelay, SEG_RT_1_AnUnreachableServerIsAnErrorNamingIt) {
  record_spec("§5.1", "SEG-RT-1");
  try {
    PostgresRelay relay("host=127.0.0.1 port=1 dbname=postgres");
    FAIL() << "a relay to a closed port was made: " << relay.dsn();
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("127.0.0.1:1"));
  }
}

}  // namespace
}  // namespace ssp::harness
