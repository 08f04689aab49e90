// The harness's own SQL reads the candidate's tables behind its back
// (harness/backends/inspection_failure.hpp, HARNESS-31): a table or column the
// candidate lacks is the candidate's failure, said in words; the harness's
// own mistake is a harness error; a database error a test provokes on purpose
// stays what it was.
#include <gmock/gmock.h>

#include "harness/backends/inspection_failure.hpp"
#include "harness/backends/test_database.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/errors/harness_error.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// The message `step` throws as CandidateLayoutMissing, or a note that it did not.
template <class Step>
std::string missing_layout(Step&& step) {
  try {
    step();
  } catch (const CandidateLayoutMissing& missing) {
    return missing.what();
  } catch (const std::exception& other) {
    return std::string("threw something else: ") + other.what();
  }
  return "threw nothing";
}

TEST(InspectionFailures, HARNESS_31_AMissingCandidateTableIsNamedAndAHarnessBugIsAHarnessError) {
  record_spec("Harness", "HARNESS-31");
  // A real SQLite test database, in which no candidate has created anything.
  const auto database = create_test_database(Backend::sqlite);
  ASSERT_TRUE(database);
  EXPECT_EQ(missing_layout([&] { database->query_column("SELECT segment_id FROM sync_segments"); }),
            "the candidate's database has no table sync_segments (the segment store, 0.21 and "
            "0.22, §5.1)");
  // A 0.21-era store: the first table exists, the 0.22 side tables do not.
  database->exec("CREATE TABLE sync_segments (segment_id TEXT PRIMARY KEY, bytes BLOB);"
                 "CREATE TABLE sync_segment_scopes (segment_id TEXT, scope_digest TEXT)");
  EXPECT_EQ(missing_layout([&] { database->dump_segment_tables(); }),
            "the candidate's database has no table sync_segment_publications (the 0.22 segment "
            "layout, §5.1)");
  EXPECT_EQ(missing_layout([&] { database->query_column("SELECT pub_key FROM sync_segments"); }),
            "the candidate's database has no column pub_key in table sync_segments (the segment "
            "store, 0.21 and 0.22, §5.1)");

  // The harness's own mistakes (this test provokes them: they do not mark it).
  const HarnessErrorsExpected provoked;
  EXPECT_THROW(database->exec("SELEC 1"), HarnessError);
  EXPECT_THROW(database->query_column("SELECT n FROM ssp_injected_budget"), HarnessError);
  // A refusal a test provokes on purpose is neither.
  database->exec("CREATE TABLE t (x INTEGER NOT NULL)");
  try {
    database->exec("INSERT INTO t VALUES (NULL)");
    ADD_FAILURE() << "the NOT NULL constraint did not refuse";
  } catch (const CandidateLayoutMissing& wrong) {
    ADD_FAILURE() << wrong.what();
  } catch (const HarnessError& wrong) {
    ADD_FAILURE() << wrong.what();
  } catch (const std::exception& refused) {
    EXPECT_THAT(refused.what(), HasSubstr("NOT NULL"));
  }

  // PostgreSQL's wording (libpqxx passes the server's text on).
  EXPECT_EQ(missing_layout([] {
              raise_inspection_failure(
                  "ERROR:  relation \"ssp_t_ab12.sync_segment_scopes\" does not exist\n", "dump");
            }),
            "the candidate's database has no table sync_segment_scopes (the 0.22 segment layout, "
            "§5.1)");
  EXPECT_EQ(missing_layout([] {
              raise_inspection_failure(
                  "ERROR:  column \"ord\" does not exist\nLINE 1: SELECT ord FROM "
                  "sync_segment_publications\n",
                  "dump");
            }),
            "the candidate's database has no column ord in table sync_segment_publications (the "
            "0.22 segment layout, §5.1)");
  // A column of a relation: the relation exists, the column does not.
  EXPECT_EQ(missing_layout([] {
              raise_inspection_failure(
                  "ERROR:  column \"_sync_scopes\" of relation \"tasks\" does not exist\n",
                  "UPDATE tasks SET _sync_scopes = NULL");
            }),
            "the candidate's database has no column _sync_scopes in table tasks (a table of the "
            "configured schema, §2.4)");
  EXPECT_EQ(missing_layout([] {
              raise_inspection_failure("ERROR:  relation \"tasks\" does not exist\n", "seed");
            }),
            "the candidate's database has no table tasks (a table of the configured schema, §2.4)");
  EXPECT_NO_THROW(raise_inspection_failure("ERROR:  deadlock detected", "dump"));
}

}  // namespace
}  // namespace ssp::harness
