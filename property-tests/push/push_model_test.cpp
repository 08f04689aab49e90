// PUSH-MODEL-1 (SSP2 §2.1–§2.3, §3.4, §6.2–§6.4, §6.7, §6.8; design notes push.md
// §1.1, §5, §6.1): random single-threaded sequences of pushes over two
// partitions, run through the candidate's push area on a fresh database per
// case and through the independent model of push_model.hpp. After every push
// the answer, the commit logs, every row of the universe and the stored
// results are compared with the model.
#include "push_model.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <map>
#include <sstream>

#include "harness/fixtures/push_fixtures.hpp"
#include "property_run.hpp"

namespace ssp::properties {
namespace {

using push::OperationResult;
using push::OperationStatus;
using push::PushAnswer;
using push::PushAnswerStatus;

constexpr std::int64_t kClockStart = 1000;

const std::vector<std::string> kPushPartitions = {"acme", "globex"};
const std::vector<std::string> kClients = {"client-1", "client-2"};
const std::vector<std::string> kTaskIds = {"t1", "t2", "t3"};
const std::vector<std::string> kDocIds = {"d1", "d2"};
const std::vector<std::string> kPushTables = {"tasks", "docs"};

const std::vector<std::string>& ids_of(const std::string& table) {
  return table == "tasks" ? kTaskIds : kDocIds;
}

// Actors with every scope, with one project (and org o1), with none, and one
// whose resolver failed.
const std::vector<std::pair<std::string, std::optional<ScopeMap>>>& actors() {
  static const std::vector<std::pair<std::string, std::optional<ScopeMap>>> all = {
      {"user-all", ScopeMap{{"project_id", {"*"}}, {"org_id", {"*"}}, {"team_id", {"*"}}}},
      {"user-p1", ScopeMap{{"project_id", {"p1"}}, {"org_id", {"o1"}}, {"team_id", {"t1", "t2"}}}},
      {"user-none", ScopeMap{}},
      {"user-broken", std::nullopt},
  };
  return all;
}

// ---- generated steps (indices, resolved against the model when run) --------

enum class Base { none, zero, current, stale, three };

struct GenOp {
  bool docs = false;
  int row = 0;
  bool remove = false;
  int scope_a = 0;  // tasks: project p1/p2/""; docs: org o1/o2
  int scope_b = 0;  // docs: team t1/t2/""
  int title = 0;    // tasks: null/"a"/"b"/"reject"/"keep"; docs: body null/"x"
  bool done = false;
  // current: the row's version as the model holds it, 0 when absent.
  Base base = Base::none;
  bool wrong_key = false;  // the payload's key is not the rowId
};

struct GenStep {
  int partition = 0;
  int client = 0;
  int actor = 0;
  bool reuse = false;         // an earlier key of this case …
  int reuse_pick = 0;         // … which one
  bool same_ops = true;       // … sent with its earlier operations, or with these
  bool other_client = false;  // … under the other clientId (a new key)
  std::vector<GenOp> ops;
  int advance = 0;  // ms the clock moves on before the push
};

void showValue(const GenOp& op, std::ostream& os) {
  os << (op.remove ? "delete " : "upsert ") << (op.docs ? "docs" : "tasks") << " #" << op.row;
}
void showValue(const GenStep& step, std::ostream& os) {
  os << "step(partition " << step.partition << ", actor " << step.actor << ":";
  for (const GenOp& op : step.ops) {
    os << " ";
    showValue(op, os);
  }
  os << ")";
}

rc::Gen<GenOp> gen_op() {
  return rc::gen::build<GenOp>(
      rc::gen::set(&GenOp::docs, rc::gen::weightedElement<bool>({{3, false}, {1, true}})),
      rc::gen::set(&GenOp::row, rc::gen::inRange(0, 3)),
      rc::gen::set(&GenOp::remove, rc::gen::weightedElement<bool>({{3, false}, {1, true}})),
      rc::gen::set(&GenOp::scope_a, rc::gen::weightedElement<int>({{6, 0}, {3, 1}, {1, 2}})),
      rc::gen::set(&GenOp::scope_b, rc::gen::weightedElement<int>({{6, 0}, {3, 1}, {1, 2}})),
      rc::gen::set(&GenOp::title,
                   rc::gen::weightedElement<int>({{2, 0}, {3, 1}, {3, 2}, {1, 3}, {1, 4}})),
      rc::gen::set(&GenOp::done, rc::gen::arbitrary<bool>()),
      rc::gen::set(&GenOp::base, rc::gen::weightedElement<Base>({{6, Base::none},
                                                                 {2, Base::zero},
                                                                 {5, Base::current},
                                                                 {1, Base::stale},
                                                                 {1, Base::three}})),
      rc::gen::set(&GenOp::wrong_key, rc::gen::weightedElement<bool>({{15, false}, {1, true}})));
}

rc::Gen<GenStep> gen_step() {
  return rc::gen::build<GenStep>(
      rc::gen::set(&GenStep::partition, rc::gen::weightedElement<int>({{3, 0}, {1, 1}})),
      rc::gen::set(&GenStep::client, rc::gen::weightedElement<int>({{3, 0}, {1, 1}})),
      rc::gen::set(&GenStep::actor,
                   rc::gen::weightedElement<int>({{8, 0}, {3, 1}, {1, 2}, {1, 3}})),
      rc::gen::set(&GenStep::reuse, rc::gen::weightedElement<bool>({{4, false}, {1, true}})),
      rc::gen::set(&GenStep::reuse_pick, rc::gen::inRange(0, 1000)),
      rc::gen::set(&GenStep::same_ops, rc::gen::arbitrary<bool>()),
      rc::gen::set(&GenStep::other_client, rc::gen::weightedElement<bool>({{5, false}, {1, true}})),
      rc::gen::set(&GenStep::ops,
                   rc::gen::mapcat(rc::gen::weightedElement<std::size_t>({{3, 1}, {2, 2}, {1, 3}}),
                                   [](std::size_t count) {
                                     return rc::gen::container<std::vector<GenOp>>(count, gen_op());
                                   })),
      rc::gen::set(&GenStep::advance, rc::gen::inRange(0, 5)));
}

// ---- printing ---------------------------------------------------------------

std::string show(const storage::RowValue& value) {
  if (std::holds_alternative<std::monostate>(value)) return "null";
  if (const auto* text = std::get_if<std::string>(&value)) {
    std::string quoted = "\"";
    quoted.append(*text).append("\"");
    return quoted;
  }
  if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  return "<other>";
}

std::string show(const storage::Row& row) {
  std::string out = "(";
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out += ",";
    out += show(row[i]);
  }
  return out + ")";
}

std::string show(const std::map<std::string, std::string>& scopes) {
  std::string out = "{";
  for (const auto& [variable, value] : scopes) {
    if (out.size() > 1) out += ",";
    out += variable + "=" + value;
  }
  return out + "}";
}

std::string show(const ModelRecord& record) {
  static constexpr const char* kStatus[] = {"applied", "conflict", "error"};
  std::ostringstream out;
  out << "{op " << record.op_index << " " << kStatus[static_cast<int>(record.status)];
  if (record.status != ModelRecordStatus::applied) {
    out << " " << record.code << " \"" << record.message.value_or("<any text>") << "\"";
  }
  if (record.server_version) out << " serverVersion " << *record.server_version;
  if (record.server_row) out << " serverRow " << show(*record.server_row);
  if (record.retryable) out << " retryable";
  return out.str() + "}";
}

std::string show(const ModelAnswer& answer) {
  static constexpr const char* kStatus[] = {"applied", "cached", "rejected"};
  std::ostringstream out;
  out << kStatus[static_cast<int>(answer.status)];
  if (answer.commit_seq) out << " seq " << *answer.commit_seq;
  if (answer.replayed) out << " (replayed)";
  for (const auto& record : answer.results) out << " " << show(record);
  return out.str();
}

std::string show(const ModelActor& actor, const ModelCommit& commit) {
  std::ostringstream out;
  out << actor.partition << " " << commit.client_id << "/" << commit.client_commit_id << " by "
      << actor.actor_id << ":";
  for (const auto& op : commit.operations) {
    out << (op.remove ? " delete " : " upsert ") << op.table << " " << op.row_id;
    if (!op.remove) out << " " << show(op.values);
    if (op.base_version) out << " base " << *op.base_version;
    out << ";";
  }
  return out.str();
}

// ---- the property -----------------------------------------------------------

class PushModel : public harness::PushTest {
 protected:
  // One generated case on a database of its own.
  void run_case(const std::vector<GenStep>& steps);
};
SSP_SQL_BACKENDS(PushModel);

// What one case runs the candidate on, and what the candidate answered so far.
class CaseRun {
 public:
  CaseRun(harness::Candidate& candidate, const storage::CompiledSchema& schema,
          storage::ServerStorage& storage)
      : candidate_(candidate), schema_(schema), storage_(storage) {}

  void run(const std::vector<GenStep>& steps);

 private:
  struct Sent {
    ModelActor actor;
    ModelCommit commit;
  };
  using Key = std::tuple<std::string, std::string, std::string>;

  Sent resolve(const GenStep& step, std::size_t index) const;
  ModelOperation resolve_op(const std::string& partition, const GenOp& op) const;
  push::PushOptions options();
  storage::Bytes encode(const std::string& table, const storage::Row& values) const;
  std::optional<storage::Row> decode(const std::string& table, const storage::Bytes& payload,
                                     std::string& failure) const;

  void compare_record(const std::string& where, const std::string& table_hint,
                      const ModelRecord& expected, const OperationResult& actual);
  void compare_records(const std::string& where, const std::string& table_hint,
                       const std::vector<ModelRecord>& expected,
                       const std::vector<OperationResult>& actual);
  // The logs and rows, and the stored results of `keys`.
  void compare_state(const std::vector<Key>& keys);
  void compare_stored_result(const Key& key);
  // Fails the property with the transcript when anything differed.
  void fail_on_differences(const std::string& when);
  void differ(const std::string& text) { differences_ << "  " << text << "\n"; }

  harness::Candidate& candidate_;
  const storage::CompiledSchema& schema_;
  storage::ServerStorage& storage_;
  PushPipelineModel model_{kClockStart};
  std::int64_t now_ = kClockStart;
  int identities_ = 0;
  // The cache identity SSP2 leaves to the server: PushOptions offers one
  // (identity-N), and a candidate without that seam mints its own (upstream:
  // crypto.randomUUID()). Each outcome's identity is matched one to one with
  // the model's, and must stay the same on every read.
  std::map<std::string, std::string> identity_of_;     // model's → candidate's
  std::map<std::string, std::string> identity_owner_;  // candidate's → model's
  bool same_identity(const std::string& expected, const std::optional<std::string>& actual);
  std::vector<Sent> sent_;
  std::map<Key, PushAnswer> first_answers_;  // by key: the answer that minted the outcome
  std::map<Key, Sent> minted_;               // by key: the push that minted the outcome
  std::ostringstream transcript_;
  std::ostringstream differences_;
};

ModelOperation CaseRun::resolve_op(const std::string& partition, const GenOp& op) const {
  ModelOperation out;
  out.table = op.docs ? "docs" : "tasks";
  const auto& ids = ids_of(out.table);
  out.row_id = ids[static_cast<std::size_t>(op.row) % ids.size()];
  out.remove = op.remove;
  if (op.remove) return out;
  const std::string key = op.wrong_key ? out.row_id + "x" : out.row_id;
  static const std::vector<std::string> projects = {"p1", "p2", ""};
  static const std::vector<std::string> orgs = {"o1", "o2", "o1"};
  static const std::vector<std::string> teams = {"t1", "t2", ""};
  if (op.docs) {
    storage::RowValue body = std::monostate{};
    if (op.title % 2 == 1) body = std::string("x");
    out.values = {key, orgs[op.scope_a], teams[op.scope_b], body};
  } else {
    static const std::vector<std::optional<std::string>> titles = {std::nullopt, "a", "b", "reject",
                                                                   "keep"};
    storage::RowValue title = std::monostate{};
    if (titles[op.title]) title = *titles[op.title];
    out.values = {key, projects[op.scope_a], title, op.done};
  }
  const auto stored = model_.row(partition, out.table, out.row_id);
  switch (op.base) {
    case Base::none:
      break;
    case Base::zero:
      out.base_version = 0;
      break;
    case Base::current:
      out.base_version = stored ? stored->server_version : 0;
      break;
    case Base::stale:
      out.base_version = !stored                      ? 2
                         : stored->server_version > 1 ? stored->server_version - 1
                                                      : stored->server_version + 1;
      break;
    case Base::three:
      out.base_version = 3;
      break;
  }
  return out;
}

CaseRun::Sent CaseRun::resolve(const GenStep& step, std::size_t index) const {
  Sent sent;
  const auto& [actor_id, allowed] = actors()[static_cast<std::size_t>(step.actor)];
  sent.actor =
      ModelActor{kPushPartitions[static_cast<std::size_t>(step.partition)], actor_id, allowed};
  sent.commit.client_id = kClients[static_cast<std::size_t>(step.client)];
  sent.commit.client_commit_id = std::string("c").append(std::to_string(index + 1));
  if (step.reuse && !sent_.empty()) {
    const Sent& earlier = sent_[static_cast<std::size_t>(step.reuse_pick) % sent_.size()];
    sent.actor.partition = earlier.actor.partition;
    sent.commit.client_id = earlier.commit.client_id;
    if (step.other_client)
      sent.commit.client_id = sent.commit.client_id == kClients[0] ? kClients[1] : kClients[0];
    sent.commit.client_commit_id = earlier.commit.client_commit_id;
    if (step.same_ops) {
      sent.commit.operations = earlier.commit.operations;
      return sent;
    }
  }
  for (const GenOp& op : step.ops) {
    sent.commit.operations.push_back(resolve_op(sent.actor.partition, op));
  }
  return sent;
}

storage::Bytes CaseRun::encode(const std::string& table, const storage::Row& values) const {
  return candidate_.rows().encode(schema_.find(table)->layout(), values);
}

std::optional<storage::Row> CaseRun::decode(const std::string& table, const storage::Bytes& payload,
                                            std::string& failure) const {
  try {
    return candidate_.rows().decode(schema_.find(table)->layout(), payload);
  } catch (const std::exception& error) {
    failure = error.what();
    return std::nullopt;
  }
}

push::PushOptions CaseRun::options() {
  push::PushOptions options;
  options.clock = [this] { return now_++; };
  options.new_cache_identity = [this] { return std::string("identity-").append(std::to_string(++identities_)); };
  options.row_validators["tasks"] = [](const push::RowValidation& op) {
    const auto title_is = [](const std::optional<storage::Row>& row, const char* text) {
      return row && row->size() > 2 && (*row)[2] == storage::RowValue(std::string(text));
    };
    if (op.op == push::OperationKind::upsert && title_is(op.row, "reject")) {
      throw push::ValidationRejection(kRejectedTitleCode, kRejectedTitleMessage);
    }
    if (op.op == push::OperationKind::remove && title_is(op.stored, "keep")) {
      throw push::ValidationRejection(kKeptTaskCode, kKeptTaskMessage);
    }
  };
  options.commit_validator = [](const push::CommitValidation& input) {
    for (const auto& evidence : input.operations) {
      if (evidence.next_server_version && *evidence.next_server_version >= kVersionCap) {
        throw push::CommitValidationRejection(evidence.op_index, kVersionCapCode,
                                              kVersionCapMessage);
      }
    }
  };
  return options;
}

void CaseRun::compare_record(const std::string& where, const std::string& table_hint,
                             const ModelRecord& expected, const OperationResult& actual) {
  std::ostringstream got;
  push::PrintTo(actual, &got);
  const std::string prefix = where + " record: expected " + show(expected) + ", got " + got.str();
  if (actual.op_index != expected.op_index ||
      static_cast<int>(actual.status) != static_cast<int>(expected.status) ||
      actual.code != expected.code || actual.retryable != expected.retryable ||
      actual.server_version != expected.server_version || actual.details_json) {
    differ(prefix);
    return;
  }
  if (expected.status != ModelRecordStatus::applied &&
      (expected.message ? actual.message != *expected.message : actual.message.empty())) {
    differ(prefix + " (message \"" + actual.message + "\")");
    return;
  }
  if (expected.status == ModelRecordStatus::applied && !actual.message.empty()) {
    differ(prefix + " (an applied record carries a message)");
    return;
  }
  if (expected.server_row.has_value() != actual.server_row.has_value()) {
    differ(prefix + " (serverRow presence)");
    return;
  }
  if (actual.server_row) {
    std::string failure;
    const auto decoded = decode(table_hint, *actual.server_row, failure);
    if (!decoded) {
      differ(prefix + " (serverRow does not decode: " + failure + ")");
    } else if (*decoded != *expected.server_row) {
      differ(prefix + " (serverRow " + show(*decoded) + ")");
    }
  }
}

void CaseRun::compare_records(const std::string& where, const std::string& table_hint,
                              const std::vector<ModelRecord>& expected,
                              const std::vector<OperationResult>& actual) {
  if (expected.size() != actual.size()) {
    differ(where + ": " + std::to_string(actual.size()) + " records, expected " +
           std::to_string(expected.size()));
    return;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    compare_record(where, table_hint, expected[i], actual[i]);
  }
}

// The table a conflict record's serverRow belongs to: the operation's.
std::string table_of_record(const ModelCommit& commit, const std::vector<ModelRecord>& records) {
  if (records.size() == 1 && records[0].server_row &&
      static_cast<std::size_t>(records[0].op_index) < commit.operations.size()) {
    return commit.operations[static_cast<std::size_t>(records[0].op_index)].table;
  }
  return "tasks";
}

void CaseRun::compare_state(const std::vector<Key>& keys) {
  // The commit logs (§2.1) and max seq.
  for (const std::string& partition : kPushPartitions) {
    const auto expected = model_.log(partition);
    if (storage_.get_max_commit_seq(partition) != model_.max_commit_seq(partition)) {
      differ(partition + ": max commit seq " +
             std::to_string(storage_.get_max_commit_seq(partition)) + ", expected " +
             std::to_string(model_.max_commit_seq(partition)));
    }
    const auto actual = storage_.read_commit_window(partition, 0, 1000);
    if (actual.size() != expected.size()) {
      differ(partition + ": " + std::to_string(actual.size()) + " commits in the log, expected " +
             std::to_string(expected.size()));
      continue;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto& e = expected[i];
      const auto& a = actual[i];
      const std::string where = partition + " commit " + std::to_string(e.commit_seq);
      if (a.commit_seq != e.commit_seq || a.entry.client_id != e.client_id ||
          a.entry.client_commit_id != e.client_commit_id || a.entry.actor_id != e.actor_id ||
          a.entry.created_at_ms != e.created_at_ms) {
        differ(where + ": got seq " + std::to_string(a.commit_seq) + " " + a.entry.client_id + "/" +
               a.entry.client_commit_id + " by " + a.entry.actor_id + " at " +
               std::to_string(a.entry.created_at_ms) + ", expected " + e.client_id + "/" +
               e.client_commit_id + " by " + e.actor_id + " at " + std::to_string(e.created_at_ms));
      }
      if (a.entry.changes.size() != e.changes.size()) {
        differ(where + ": " + std::to_string(a.entry.changes.size()) + " changes, expected " +
               std::to_string(e.changes.size()));
        continue;
      }
      for (std::size_t c = 0; c < e.changes.size(); ++c) {
        const auto& ec = e.changes[c];
        const auto& ac = a.entry.changes[c];
        const std::string at = where + " change " + std::to_string(c) + " (" + ec.table + " " +
                               ec.row_id + (ec.remove ? " delete" : " upsert") + ")";
        const bool remove = ac.op == storage::ChangeOp::remove;
        if (ac.table != ec.table || ac.row_id != ec.row_id || remove != ec.remove ||
            ac.row_version != ec.row_version || ac.scopes != ec.scopes ||
            ac.payload.has_value() != ec.values.has_value()) {
          differ(at + ": got " + ac.table + " " + ac.row_id + (remove ? " delete" : " upsert") +
                 " v" + std::to_string(ac.row_version.value_or(0)) + " " + show(ac.scopes) +
                 ", expected v" + std::to_string(ec.row_version.value_or(0)) + " " +
                 show(ec.scopes));
          continue;
        }
        if (ac.payload) {
          std::string failure;
          const auto decoded = decode(ec.table, *ac.payload, failure);
          if (!decoded || *decoded != *ec.values) {
            differ(at + ": payload " + (decoded ? show(*decoded) : failure) + ", expected " +
                   show(*ec.values));
          }
        }
      }
    }
  }
  // Every row of the universe, as the storage serves it.
  for (const std::string& partition : kPushPartitions) {
    for (const std::string& table : kPushTables) {
      for (const std::string& id : ids_of(table)) {
        const auto expected = model_.row(partition, table, id);
        const auto actual = storage_.get_row(partition, table, id);
        const std::string where = partition + " " + table + " " + id;
        if (expected.has_value() != actual.has_value()) {
          differ(where + (actual ? ": present, expected absent" : ": absent, expected present"));
          continue;
        }
        if (!actual) continue;
        std::string failure;
        const auto decoded = decode(table, actual->payload, failure);
        if (actual->row_id != id || actual->server_version != expected->server_version ||
            actual->scopes != expected->scopes || !decoded || *decoded != expected->values) {
          differ(where + ": got v" + std::to_string(actual->server_version) + " " +
                 show(actual->scopes) + " " + (decoded ? show(*decoded) : failure) +
                 ", expected v" + std::to_string(expected->server_version) + " " +
                 show(expected->scopes) + " " + show(expected->values));
        }
      }
    }
  }
  for (const Key& key : keys) compare_stored_result(key);
}

bool CaseRun::same_identity(const std::string& expected, const std::optional<std::string>& actual) {
  if (!actual || actual->empty()) return false;
  const auto known = identity_of_.find(expected);
  if (known != identity_of_.end()) return known->second == *actual;
  // First seen: it must not be another outcome's identity already.
  if (!identity_owner_.emplace(*actual, expected).second) return false;
  identity_of_.emplace(expected, *actual);
  return true;
}

void CaseRun::compare_stored_result(const Key& key) {
  const PushAnswer& first = first_answers_.at(key);
  const auto& [partition, client, id] = key;
  const std::string where = "stored result " + partition + " " + client + "/" + id;
  const auto expected = model_.stored_result(partition, client, id);
  std::optional<push::StoredPushResult> actual;
  try {
    actual = storage_.get_push_result(partition, client, id);
  } catch (const std::exception& error) {
    differ(where + ": unreadable: " + error.what());
    return;
  }
  if (expected.has_value() != actual.has_value()) {
    differ(where + (actual ? ": present, expected absent" : ": absent, expected present"));
    return;
  }
  if (!actual) return;
  const bool applied = actual->status == push::PushStatus::applied;
  if (applied != (expected->status == ModelPushStatus::applied) ||
      actual->commit_seq != expected->commit_seq ||
      actual->recorded_at_ms != std::optional<std::int64_t>(expected->recorded_at_ms) ||
      !same_identity(expected->cache_identity, actual->cache_identity)) {
    differ(where + ": got " + (applied ? "applied" : "rejected") + " seq " +
           std::to_string(actual->commit_seq.value_or(0)) + " at " +
           std::to_string(actual->recorded_at_ms.value_or(0)) + " " +
           actual->cache_identity.value_or("<none>") + ", expected seq " +
           std::to_string(expected->commit_seq.value_or(0)) + " at " +
           std::to_string(expected->recorded_at_ms) + " " + expected->cache_identity);
  }
  compare_records(where, table_of_record(minted_.at(key).commit, expected->results),
                  expected->results, actual->results);
  // Byte-stable (§2.3): the stored records are the ones first answered.
  if (actual->results != first.results) differ(where + ": records differ from the first answer");
}

void CaseRun::run(const std::vector<GenStep>& steps) {
  for (std::size_t index = 0; index < steps.size(); ++index) {
    const GenStep& step = steps[index];
    now_ += step.advance;
    model_.advance(step.advance);
    const Sent sent = resolve(step, index);
    const ModelAnswer expected = model_.push(sent.actor, sent.commit);
    const Key key{sent.actor.partition, sent.commit.client_id, sent.commit.client_commit_id};

    push::PushCommit commit{sent.commit.client_id, sent.commit.client_commit_id, {}};
    for (const ModelOperation& op : sent.commit.operations) {
      push::PushOperation out{op.table, op.row_id,
                              op.remove ? push::OperationKind::remove : push::OperationKind::upsert,
                              std::nullopt, op.base_version};
      if (!op.remove) out.payload = encode(op.table, op.values);
      commit.operations.push_back(std::move(out));
    }
    const push::PushActor actor{sent.actor.partition, sent.actor.actor_id,
                                sent.actor.allowed_scopes};
    transcript_ << "#" << index + 1 << " " << show(sent.actor, sent.commit) << "\n"
                << "    model: " << show(expected) << "\n";
    sent_.push_back(sent);
    minted_.emplace(key, sent);  // a replay's records name the first push's operations

    PushAnswer answer;
    try {
      answer = candidate_.push().push(storage_, schema_, actor, commit, options());
    } catch (const std::exception& error) {
      RC_FAIL(transcript_.str() + "the candidate threw: " + error.what());
    }
    transcript_ << "    candidate: " << ::testing::PrintToString(answer) << "\n";

    static constexpr const char* kStatus[] = {"applied", "cached", "rejected"};
    if (static_cast<int>(answer.status) != static_cast<int>(expected.status) ||
        answer.commit_seq != expected.commit_seq || answer.replayed != expected.replayed) {
      differ(std::string("answer: ") + kStatus[static_cast<int>(answer.status)] + " seq " +
             std::to_string(answer.commit_seq.value_or(0)) + " replayed " +
             (answer.replayed ? "yes" : "no") + ", expected " + show(expected));
    }
    compare_records("answer", table_of_record(minted_.at(key).commit, expected.results),
                    expected.results, answer.results);
    if (const auto first = first_answers_.find(key); first != first_answers_.end()) {
      // A replay hands back the stored records byte for byte (§2.3).
      if (answer.results != first->second.results ||
          answer.commit_seq != first->second.commit_seq) {
        differ("answer: the replay's records differ from the first answer's");
      }
    } else {
      first_answers_.emplace(key, answer);
    }
    compare_state({key});
    fail_on_differences(std::string("after push #").append(std::to_string(index + 1)));
  }
  // Other keys' results cannot change; one sweep at the end finds a push
  // that wrote under a wrong key, without a quadratic number of reads.
  std::vector<Key> keys;
  for (const auto& entry : first_answers_) keys.push_back(entry.first);
  compare_state(keys);
  fail_on_differences("at the end, every key");
}

void CaseRun::fail_on_differences(const std::string& when) {
  const std::string differences = differences_.str();
  if (!differences.empty()) {
    RC_FAIL(transcript_.str() + when + ", candidate against model:\n" + differences);
  }
}

void PushModel::run_case(const std::vector<GenStep>& steps) {
  auto database = fresh_database();
  auto storage = open_on(*database);
  storage->ensure_schema(schema());
  CaseRun(candidate(), schema(), *storage).run(steps);
}

TEST_P(PushModel, PUSH_MODEL_1_PushSequencesMatchTheModelAfterEveryPush) {
  harness::record_spec("§2.1, §2.2, §2.3, §3.4, §6.2, §6.3, §6.4", "PUSH-MODEL-1");
  check_property(
      [this] {
        const auto steps = *rc::gen::scale(
            0.5, rc::gen::nonEmpty(rc::gen::container<std::vector<GenStep>>(gen_step())));
        run_case(steps);
      },
      30);
}

}  // namespace
}  // namespace ssp::properties
