// The PostgreSQL push session's batch rule (src/postgres/statement_merge.hpp,
// issue 22): one-row INSERTs of distinct rows become multi-row INSERTs, an
// independent statement moves ahead so that it stops none of them, and no
// statement moves past one that writes its row or whose writes are unknown.
// The rule is pure, so these tests read the statements it returns; the
// conformance and staged-writes tests run its batches on PostgreSQL.
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "postgres/statement_merge.hpp"

namespace ssp::storage {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;

Params params_of(std::initializer_list<std::string> values) {
  Params params;
  for (const std::string& value : values) params.add(value);
  return params;
}

// The shapes of a push's writes, on two toy tables: rows(k) and its scope
// entries refs(r, v).
Statement upsert(const std::string& row) {
  return row_insert({"INSERT INTO rows (k)", " ON CONFLICT (k) DO UPDATE SET k = excluded.k"},
                    params_of({row}), write_key({"rows", row}));
}
Statement scopes_removal(const std::string& row) {
  Statement removal{"DELETE FROM refs WHERE r = $1", params_of({row})};
  removal.writes = write_key({"refs", row});
  removal.independent = true;
  return removal;
}
Statement scope_entry(const std::string& row, const std::string& value) {
  return row_insert({"INSERT INTO refs (r, v)", ""}, params_of({row, value}),
                    write_key({"refs", row, value}));
}

std::vector<Statement> merged(const std::vector<Statement>& statements) {
  std::vector<const Statement*> pointers;
  for (const Statement& statement : statements) pointers.push_back(&statement);
  return merge_row_inserts(pointers);
}

std::vector<std::string> texts(const std::vector<Statement>& statements) {
  std::vector<std::string> out;
  for (const Statement& statement : statements) out.push_back(statement.sql);
  return out;
}

std::vector<std::optional<std::string>> values(const Statement& statement) {
  return statement.params.values();
}

TEST(StatementMerge, PUSH_REF_5_DistinctRowsMergeAndTheirScopeRemovalsGoFirst) {
  harness::record_spec("§6.4", "PUSH-REF-5");
  const auto out = merged({upsert("a"), scopes_removal("a"), scope_entry("a", "p1"), upsert("b"),
                           scopes_removal("b"), scope_entry("b", "p2")});
  EXPECT_THAT(texts(out),
              ElementsAre("DELETE FROM refs WHERE r = $1", "DELETE FROM refs WHERE r = $1",
                          "INSERT INTO rows (k) VALUES ($1), ($2) ON CONFLICT (k) DO UPDATE SET "
                          "k = excluded.k",
                          "INSERT INTO refs (r, v) VALUES ($1, $2), ($3, $4)"));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_THAT(values(out[0]), ElementsAre(Optional(std::string("b"))));
  EXPECT_THAT(values(out[1]), ElementsAre(Optional(std::string("a"))));
  EXPECT_THAT(values(out[2]), ElementsAre(Optional(std::string("a")), Optional(std::string("b"))))
      << "rows keep their order";
  EXPECT_THAT(values(out[3]), ElementsAre(Optional(std::string("a")), Optional(std::string("p1")),
                                          Optional(std::string("b")), Optional(std::string("p2"))));
}

TEST(StatementMerge, PUSH_REF_5_ASecondWriteOfARowStaysAfterTheFirst) {
  harness::record_spec("§6.4", "PUSH-REF-5");
  const auto out = merged({upsert("a"), scopes_removal("a"), scope_entry("a", "p1"), upsert("a"),
                           scopes_removal("a"), scope_entry("a", "p2")});
  ASSERT_EQ(out.size(), 6u) << "a row's second write merged into its first";
  // The second removal may run before the second upsert (other tables), but
  // only after the first scope entry, and the second entry after it.
  EXPECT_THAT(texts(out), ElementsAre("DELETE FROM refs WHERE r = $1",
                                      "INSERT INTO rows (k) VALUES ($1) ON CONFLICT (k) DO UPDATE "
                                      "SET k = excluded.k",
                                      "INSERT INTO refs (r, v) VALUES ($1, $2)",
                                      "DELETE FROM refs WHERE r = $1",
                                      "INSERT INTO rows (k) VALUES ($1) ON CONFLICT (k) DO UPDATE "
                                      "SET k = excluded.k",
                                      "INSERT INTO refs (r, v) VALUES ($1, $2)"));
  EXPECT_THAT(values(out[2]), ElementsAre(Optional(std::string("a")), Optional(std::string("p1"))));
  EXPECT_THAT(values(out[5]), ElementsAre(Optional(std::string("a")), Optional(std::string("p2"))));
}

TEST(StatementMerge, PUSH_REF_5_NothingMovesPastAStatementOfUnknownWrites) {
  harness::record_spec("§6.4", "PUSH-REF-5");
  const Statement unknown{"UPDATE rows SET k = k", {}};
  const auto out = merged({upsert("a"), unknown, upsert("b"), scopes_removal("c")});
  // The removal goes ahead of b's upsert, as far as the unknown statement.
  EXPECT_THAT(texts(out), ElementsAre(upsert("a").sql, "UPDATE rows SET k = k",
                                      "DELETE FROM refs WHERE r = $1", upsert("b").sql));
}

TEST(StatementMerge, PUSH_REF_5_AStatementThatIsNeitherInsertNorIndependentKeepsItsPlace) {
  harness::record_spec("§6.4", "PUSH-REF-5");
  Statement row_removal{"DELETE FROM rows WHERE k = $1", params_of({"c"})};
  row_removal.writes = write_key({"rows", "c"});  // may free a unique value: it does not move
  const auto out = merged({upsert("a"), row_removal, upsert("b")});
  EXPECT_THAT(texts(out), ElementsAre("INSERT INTO rows (k) VALUES ($1), ($2) ON CONFLICT (k) DO "
                                      "UPDATE SET k = excluded.k",
                                      "DELETE FROM rows WHERE k = $1"));
}

TEST(StatementMerge, PUSH_REF_5_AMergedInsertHoldsAtMostTheCap) {
  harness::record_spec("§6.4", "PUSH-REF-5");
  std::vector<Statement> inserts;
  for (std::size_t i = 0; i <= kMaxMergedRows; ++i) inserts.push_back(upsert(std::to_string(i)));
  const auto out = merged(inserts);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].params.values().size(), kMaxMergedRows);
  EXPECT_THAT(values(out[1]), ElementsAre(Optional(std::to_string(kMaxMergedRows))));
}

}  // namespace
}  // namespace ssp::storage
