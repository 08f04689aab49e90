// The partition registry through the candidate's server storage (SSP2 §2.1;
// design notes storage.md §5.1, §5.4, §6 F-1 … F-3): the log epoch
// authentication creates and keeps, the restore rule's rotation, and the
// reads of both.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

using storage::PartitionEntry;
using ::testing::ElementsAre;

class PartitionRegistry : public PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::partition_registry);
  }

  // The partition's registry entry as the list answers it.
  std::optional<PartitionEntry> listed(const std::string& partition) {
    for (const PartitionEntry& entry : storage().list_partition_registry()) {
      if (entry.partition == partition) return entry;
    }
    return std::nullopt;
  }
};
SSP_SQL_BACKENDS(PartitionRegistry);

TEST_P(PartitionRegistry, F_1_TouchingKeepsTheFirstEpochRefreshesItsTimeAndRefusesAnEmptyOne) {
  record_spec("§2.1", "F-1");
  EXPECT_EQ(storage().touch_partition("acme", 1000, "epoch-1"),
            (PartitionEntry{"acme", "epoch-1", false, 1000}));
  EXPECT_EQ(storage().touch_partition("acme", 2000, "epoch-2"),
            (PartitionEntry{"acme", "epoch-1", false, 2000}))
      << "a registered partition keeps its epoch; only the timestamp moves";
  EXPECT_THROW(storage().touch_partition("acme", 3000, ""), InvalidArgument);
  EXPECT_THROW(storage().touch_partition("beta", 3000, ""), InvalidArgument);
  EXPECT_EQ(listed("acme"), (PartitionEntry{"acme", "epoch-1", false, 2000}))
      << "a refused touch changes nothing";
  EXPECT_EQ(listed("beta"), std::nullopt) << "nor registers anything";
}

TEST_P(PartitionRegistry, F_2_RotatingSetsARequiredEpochDropsThatPartitionsClientsAndKeepsItsLog) {
  record_spec("§2.1", "F-2");
  storage().touch_partition("acme", 1000, "epoch-1");
  storage().touch_partition("beta", 1000, "epoch-b");
  ASSERT_EQ(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1"))})), 1);
  const auto result_before = stored_result("k1");
  ASSERT_TRUE(result_before.has_value());
  // Client records, where the test can write upstream's table.
  const auto tables = optional_grant(candidate(), Capability::upstream_tables);
  const auto client_record = [&](const std::string& partition, const std::string& client) {
    database().exec("INSERT INTO sync_clients (partition, client_id, actor_id, cursor, "
                    "subscriptions, updated_at_ms) VALUES ('" + partition + "', '" + client +
                    "', 'user-1', 1, '[]', 1000)");
  };
  if (tables) {
    client_record("acme", "c1");
    client_record("acme", "c2");
    client_record("beta", "c1");
  }

  EXPECT_EQ(storage().rotate_partition_log_epoch("acme", "epoch-2", 5000),
            (PartitionEntry{"acme", "epoch-2", true, 5000}));
  EXPECT_THROW(storage().rotate_partition_log_epoch("acme", "", 6000), InvalidArgument);
  EXPECT_EQ(storage().get_partition_log_epoch("acme"), std::optional<std::string>("epoch-2"));
  EXPECT_EQ(listed("beta"), (PartitionEntry{"beta", "epoch-b", false, 1000}))
      << "another partition is left alone";
  EXPECT_EQ(storage().rotate_partition_log_epoch("gamma", "epoch-g", 7000),
            (PartitionEntry{"gamma", "epoch-g", true, 7000}))
      << "rotating an unregistered partition registers it";
  EXPECT_EQ(max_seq(), 1) << "the commit log is kept";
  EXPECT_EQ(stored_result("k1"), result_before) << "stored results are kept";
  if (tables) {
    EXPECT_EQ(database().query_column("SELECT client_id FROM sync_clients WHERE partition = "
                                      "'acme'"),
              std::vector<std::string>{})
        << "the rotated partition's client records are gone";
    EXPECT_EQ(database().query_column("SELECT client_id FROM sync_clients WHERE partition = "
                                      "'beta'"),
              std::vector<std::string>{"c1"})
        << "another partition's are not";
  }
}

TEST_P(PartitionRegistry, F_3_ReadingAnEpochAnswersItOrNothingAndRefreshesNothing) {
  record_spec("§2.1", "F-3");
  EXPECT_EQ(storage().get_partition_log_epoch("acme"), std::nullopt);
  storage().touch_partition("acme", 1000, "epoch-1");
  storage().touch_partition("beta", 1500, "epoch-b");
  EXPECT_EQ(storage().get_partition_log_epoch("acme"), std::optional<std::string>("epoch-1"));
  EXPECT_EQ(storage().get_partition_log_epoch("gamma"), std::nullopt);
  EXPECT_THAT(storage().list_partition_registry(),
              ElementsAre(PartitionEntry{"acme", "epoch-1", false, 1000},
                          PartitionEntry{"beta", "epoch-b", false, 1500}))
      << "every entry, by partition, with the timestamps of the touches alone";
}

}  // namespace
}  // namespace ssp::harness
