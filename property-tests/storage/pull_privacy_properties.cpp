// PULL-P1, the privacy boundary of pull's read (SSP2 §4.5, §3.1, §3.2;
// upstream's readCommitWindow): random pushes of the three tables of
// push_schema() (one scope variable, two, and one shared with another table)
// under random scope values, then random windows with random filters (a
// variable of the table or of another, several values or none) and change
// limits, each read page after page. Every page must be the page an
// independent model of the window holds (harness/models/scope_filter_model):
// never a change outside the requested scopes, never a missing one, in seq
// order, cut after the commit that reaches the limit, and paging from each
// page's last commit meets every commit once.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/models/scope_filter_model.hpp"
#include "property_run.hpp"

namespace ssp::properties {
namespace {

using storage::TableWindowQuery;
using storage::WindowCommit;

// The tables and the scope variable each column-value choice feeds.
const std::vector<std::string> kWindowTables = {"tasks", "docs", "members"};
const std::vector<std::string> kWindowValues = {"v1", "v2", "v3"};
// The scope variables of push_schema(), and one no table declares.
const std::vector<std::string> kWindowVariables = {"project_id", "org_id", "team_id", "zone_id"};

struct WindowGenWrite {
  int table = 0;
  int row = 0;
  bool remove = false;
  int first = 0;   // tasks: project; docs, members: org
  int second = 0;  // docs: team
};

struct WindowGenQuery {
  int table = 0;
  std::map<int, std::vector<int>> filter;  // variable index -> value indices (maybe none)
  int after = 0;
  int span = 0;
  int limit = 1;
};

void showValue(const WindowGenWrite& write, std::ostream& os) {
  os << (write.remove ? "delete " : "upsert ") << kWindowTables[write.table] << " r" << write.row
     << " " << kWindowValues[write.first] << " " << kWindowValues[write.second];
}

void showValue(const WindowGenQuery& query, std::ostream& os) {
  os << kWindowTables[query.table] << " {";
  for (const auto& [variable, values] : query.filter) {
    os << kWindowVariables[variable] << ":[";
    for (const int value : values) os << kWindowValues[value] << " ";
    os << "]";
  }
  os << "} after " << query.after << " +" << query.span << " limit " << query.limit;
}

rc::Gen<WindowGenWrite> gen_window_write() {
  return rc::gen::build<WindowGenWrite>(
      rc::gen::set(&WindowGenWrite::table, rc::gen::inRange(0, 3)),
      rc::gen::set(&WindowGenWrite::row, rc::gen::inRange(0, 3)),
      rc::gen::set(&WindowGenWrite::remove,
                   rc::gen::weightedElement<bool>({{3, false}, {1, true}})),
      rc::gen::set(&WindowGenWrite::first, rc::gen::inRange(0, 3)),
      rc::gen::set(&WindowGenWrite::second, rc::gen::inRange(0, 3)));
}

rc::Gen<WindowGenQuery> gen_window_query() {
  return rc::gen::build<WindowGenQuery>(
      rc::gen::set(&WindowGenQuery::table, rc::gen::inRange(0, 3)),
      rc::gen::set(&WindowGenQuery::filter,
                   rc::gen::container<std::map<int, std::vector<int>>>(
                       rc::gen::inRange(0, 4),
                       rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 3)))),
      rc::gen::set(&WindowGenQuery::after, rc::gen::inRange(0, 8)),
      rc::gen::set(&WindowGenQuery::span, rc::gen::inRange(0, 14)),
      rc::gen::set(&WindowGenQuery::limit, rc::gen::inRange(1, 6)));
}

// One change as the model holds it.
struct LoggedChange {
  std::string table;
  std::string row_id;
  bool remove = false;
  std::map<std::string, std::string> scopes;
};

struct LoggedCommit {
  std::int64_t commit_seq = 0;
  std::vector<LoggedChange> changes;
};

std::string commit_text(const std::int64_t seq, const std::vector<LoggedChange>& changes) {
  std::ostringstream out;
  out << seq << ":";
  for (const LoggedChange& change : changes) {
    out << " " << (change.remove ? "-" : "+") << change.table << "/" << change.row_id << "{";
    for (const auto& [variable, value] : change.scopes) out << variable << "=" << value << ",";
    out << "}";
  }
  return out.str();
}

std::vector<std::string> window_text(const std::vector<WindowCommit>& window) {
  std::vector<std::string> out;
  for (const WindowCommit& commit : window) {
    std::vector<LoggedChange> changes;
    for (const storage::Change& change : commit.changes) {
      changes.push_back({change.table, change.row_id, change.op == storage::ChangeOp::remove,
                         change.scopes});
    }
    out.push_back(commit_text(commit.commit_seq, changes));
  }
  return out;
}

// The window the model holds: §4.5 as ServerStorage::read_table_window states it.
std::vector<std::string> model_window(const std::vector<LoggedCommit>& log,
                                      const TableWindowQuery& query) {
  std::vector<std::string> out;
  if (query.scope_filter.empty()) return out;
  for (const auto& [variable, values] : query.scope_filter) {
    if (values.empty()) return out;
  }
  std::int64_t delivered = 0;
  for (const LoggedCommit& commit : log) {
    if (commit.commit_seq <= query.after_seq || commit.commit_seq > query.through_seq) continue;
    std::vector<LoggedChange> kept;
    for (const LoggedChange& change : commit.changes) {
      if (change.table != query.table) continue;
      if (harness::filter_allows(query.scope_filter, change.scopes)) kept.push_back(change);
    }
    if (kept.empty()) continue;
    out.push_back(commit_text(commit.commit_seq, kept));
    delivered += static_cast<std::int64_t>(kept.size());
    if (delivered >= query.limit_changes) break;
  }
  return out;
}

class PullPrivacy : public harness::PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), harness::Capability::table_window);
  }

  // The payload of a write, and the scopes its row is stored under when it
  // inserts one.
  std::pair<storage::Bytes, std::map<std::string, std::string>> row_of(const WindowGenWrite& write,
                                                                       const std::string& id) {
    const std::string first = kWindowValues[write.first];
    const std::string second = kWindowValues[write.second];
    if (write.table == 0) return {task(id, first), {{"project_id", first}}};
    if (write.table == 1) return {doc(id, first, second), {{"org_id", first}, {"team_id", second}}};
    return {member(id, first, id + "@example.test"), {{"org_id", first}}};
  }

  void run_case(const std::vector<std::vector<WindowGenWrite>>& commits,
                const std::vector<WindowGenQuery>& queries);
};
SSP_SQL_BACKENDS(PullPrivacy);

void PullPrivacy::run_case(const std::vector<std::vector<WindowGenWrite>>& commits,
                           const std::vector<WindowGenQuery>& queries) {
  auto database = fresh_database();
  auto storage = open_on(*database);
  storage->ensure_schema(schema());
  std::ostringstream transcript;
  // Each row's stored scopes: written at insert, kept by an update (§3.4
  // rule 5), the ones a delete's change carries.
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::string>> stored;
  std::vector<LoggedCommit> log;
  int index = 0;
  for (const std::vector<WindowGenWrite>& writes : commits) {
    std::vector<push::PushOperation> operations;
    std::vector<LoggedChange> changes;
    std::set<std::pair<std::string, std::string>> touched;
    for (const WindowGenWrite& write : writes) {
      const std::string& table = kWindowTables[write.table];
      const std::string id = "r" + std::to_string(write.row);
      if (!touched.insert({table, id}).second) continue;  // one write a row a commit
      const auto key = std::make_pair(table, id);
      const auto found = stored.find(key);
      if (write.remove) {
        operations.push_back(remove(table, id));
        if (found == stored.end()) continue;  // deleting an absent row emits no change
        changes.push_back({table, id, true, found->second});
        stored.erase(found);
        continue;
      }
      auto [payload, scopes] = row_of(write, id);
      operations.push_back(upsert(table, id, std::move(payload)));
      if (found == stored.end()) stored[key] = scopes;
      changes.push_back({table, id, false, stored[key]});
    }
    const std::string commit_id = "k" + std::to_string(++index);
    transcript << commit_id << ":";
    for (const WindowGenWrite& write : writes) {
      transcript << " ";
      showValue(write, transcript);
      transcript << ";";
    }
    transcript << "\n";
    const push::PushAnswer answer =
        candidate().push().push(*storage, schema(), actor(), commit(commit_id, operations),
                                options());
    RC_ASSERT(answer.status == push::PushAnswerStatus::applied);
    RC_ASSERT(answer.commit_seq.has_value());
    log.push_back({*answer.commit_seq, std::move(changes)});
  }
  for (const WindowGenQuery& generated : queries) {
    TableWindowQuery query{kWindowTables[generated.table], {}, generated.after,
                           generated.after + generated.span, generated.limit};
    for (const auto& [variable, values] : generated.filter) {
      auto& listed = query.scope_filter[kWindowVariables[variable]];
      for (const int value : values) listed.push_back(kWindowValues[value]);
    }
    // Page after page, each from the last commit of the one before.
    for (int page = 0; page < 64; ++page) {
      const std::vector<WindowCommit> window = storage->read_table_window("acme", query);
      const std::vector<std::string> answered = window_text(window);
      const std::vector<std::string> expected = model_window(log, query);
      if (answered != expected) {
        std::ostringstream query_text;
        showValue(generated, query_text);
        std::string differences = "answered:\n";
        for (const std::string& commit : answered) differences += "  " + commit + "\n";
        differences += "the model holds:\n";
        for (const std::string& commit : expected) differences += "  " + commit + "\n";
        RC_FAIL(transcript.str() + "window " + query_text.str() + ", page " +
                std::to_string(page + 1) + " (after seq " + std::to_string(query.after_seq) +
                ")\n" + differences);
      }
      if (window.empty()) break;
      query.after_seq = window.back().commit_seq;
    }
  }
}

TEST_P(PullPrivacy, PULL_P1_EveryWindowPageHoldsExactlyWhatTheScopesAllow) {
  harness::record_spec("§4.5, §3.2", "PULL-P1");
  check_property(
      [this] {
        const auto commits = *rc::gen::resize(
            12, rc::gen::nonEmpty(rc::gen::container<std::vector<std::vector<WindowGenWrite>>>(
                    rc::gen::nonEmpty(rc::gen::resize(
                        3, rc::gen::container<std::vector<WindowGenWrite>>(gen_window_write()))))));
        const auto queries = *rc::gen::resize(
            8, rc::gen::nonEmpty(
                   rc::gen::container<std::vector<WindowGenQuery>>(gen_window_query())));
        run_case(commits, queries);
      },
      25);
}

}  // namespace
}  // namespace ssp::properties
