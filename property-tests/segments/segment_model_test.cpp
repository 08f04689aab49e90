// PROP_MODEL (§5.1, §5.3, §5.5, design notes segments.md §5 invariants 1–15):
// random sequences of put / get / find / clock steps / reopen / corrupt /
// download against every backend, checked after every step against the
// independent model in segment_model.hpp, against the invariants stated on
// the store alone, and (downloads) against the invariant-15 oracle over the
// model. Partitions, epochs, tables, cursors and scope values are drawn from
// strings with quotes, backslashes, control characters, U+2028 and non-BMP
// characters.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <map>
#include <set>

#include "download/download_oracle.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "property_run.hpp"
#include "segment_case_database.hpp"
#include "segment_describe.hpp"
#include "segment_model.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::properties {
namespace {

// Short enough that a few clock steps cross it, so prune-on-put, expiry
// boundaries and non-monotonic clocks all happen within one sequence.
constexpr std::int64_t kTtlMs = 100;
constexpr std::int64_t kStartMs = harness::kNow;

// The byte universe: three payloads (one empty) and a fourth that the
// injected hasher sends to payload 0's address (invariant 12).
constexpr int kPayloads = 4;
constexpr int kColliding = 3;

const Bytes& payload(int index) {
  static const Bytes all[kPayloads] = {
      harness::payload("alpha"), Bytes{}, Bytes{0x00, 0xff, 0x10, 0x7f},
      harness::payload("collides with alpha")};
  return all[index];
}

// The store's content addressing in this test: SHA-256, except that the
// colliding payload lands on payload 0's id.
std::string address_of(const Bytes& bytes) {
  return model_content_address(bytes == payload(kColliding) ? payload(0) : bytes);
}

SegmentStoreOptions store_options(const harness::CapabilityGrant& hasher) {
  SegmentStoreOptions options;
  options.ttl_ms = kTtlMs;
  harness::inject_hasher(hasher, options, [](std::span<const std::uint8_t> bytes) {
    return address_of(Bytes(bytes.begin(), bytes.end()));
  });
  return options;
}

// Every id get is asked about after each step: the payloads' addresses, one
// well-formed id nothing hashes to, one malformed id.
const std::vector<std::string>& observed_ids() {
  static const std::vector<std::string> ids = {
      address_of(payload(0)), address_of(payload(1)), address_of(payload(2)),
      "sha256:" + std::string(64, '0'), "sha256:short"};
  return ids;
}

// ---- the universe of contexts -------------------------------------------

// Two or three values a field, one plain, the others hard to store and to
// escape (no U+0000: every store refuses it, IN-4). "p\n" and "p\\n" differ
// only in whether the backslash is escaped.
const std::vector<std::string> kPartitions = {"p1", "p\n", "p\\n"};
const std::vector<std::string> kEpochs = {"e1", "e\u2028\U0001F600"};
const std::vector<std::string> kTables = {"tasks", "t\"\x1f\x7f"};
const std::vector<std::string> kRowCursors = {"c\x0b\\\"1"};
const std::vector<std::string> kNextCursors = {"\u2029c2\U0001F600"};

// The scope sets publications are made for: their digests are the three
// scope digests of the universe, so a download can present them.
const std::vector<ScopeMap>& scope_sets() {
  static const std::vector<ScopeMap> sets = {
      {{"project_id", {"a"}}},
      {{"project_id", {"b\"\\\u2028\U0001F600"}}},
      {{"org_id", {"o\x1f"}}},
  };
  return sets;
}

// The §3.5 digests of scope_sets(), in order: python3
// hashlib.sha256(canonical.encode('utf-8')).hexdigest() of the canonical texts
// {"project_id":["a"]}, {"project_id":["b\"\\<U+2028><U+1F600>"]} and
// {"org_id":["o\u001f"]}, written by hand from §11.2, not by the reference.
const std::vector<std::string>& digests() {
  static const std::vector<std::string> all = {
      "f33db9a7a54fe23daeb0cd57d72f6dd762c1cbf3a5e2d6eadcf070efa2eb15f2",
      "90e4834fdcb664f4ce7286bda7ab4d7f05308489f8480328c6139e7d16443c74",
      "a1a99591436fa80fffe0a690dd69fa2d47bf72c73ac2fc11630417cef6028c83",
  };
  return all;
}

// A scope map for a counterexample's description: {key: [values]}.
std::string scopes_text(const ScopeMap& scopes) {
  std::string text = "{";
  for (const auto& [key, values] : scopes) {
    text += (text.size() > 1 ? ", " : "") + printable(key) + ": [";
    for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + printable(values[i]);
    text += "]";
  }
  return text + "}";
}

// The tables a download is served for: the tricky one declares only org_id.
ServedTables model_served_tables() {
  ServedTables served;
  served.declared_variables[kTables[0]] = {"project_id", "org_id"};
  served.declared_variables[kTables[1]] = {"org_id"};
  return served;
}

// What the test knows besides the model: the clock, what the last successful
// put of each id published (invariant 4), since when each find key has been
// observed absent without a put in between (invariant 10), and which ids
// were corrupted behind the store's back (invariant 1 holds for the others).
struct ModelState {
  SegmentStoreModel model{kTtlMs};
  std::int64_t now = kStartMs;
  bool persists = false;
  bool has_sql = false;
  bool downloads = false;  // the candidate has the download area
  std::set<std::string> corrupted;
  std::map<std::string, SegmentMetadata> last_put;
  std::map<std::string, std::int64_t> absent_since;  // describe(key) → earliest now
};

class StoreUnderTest {
 public:
  StoreUnderTest(harness::Backend backend, const harness::CapabilityGrant& hasher)
      : options_(store_options(hasher)), database_(backend), store_(database_.open(options_)) {}

  SegmentStore& store() { return *store_; }
  bool has_sql() const { return database_.has_sql(); }
  void corrupt_stored_bytes(const std::string& id) { database_.corrupt_stored_bytes(id); }

  // Drops the store (its connection) and opens a new one over the database.
  void reopen() {
    store_.reset();
    store_ = database_.open(options_);
  }

 private:
  const SegmentStoreOptions options_;
  CaseDatabase database_;
  std::unique_ptr<SegmentStore> store_;
};

using Command = rc::state::Command<ModelState, StoreUnderTest>;

// A cursor: null half the time, else one of `values`.
rc::Gen<std::optional<std::string>> cursor(const std::vector<std::string>& values) {
  using Cursor = std::optional<std::string>;
  return rc::gen::oneOf(rc::gen::just(Cursor{}),
                        rc::gen::map(rc::gen::elementOf(values),
                                     [](const std::string& value) { return Cursor{value}; }));
}

rc::Gen<SegmentMetadata> any_metadata() {
  return rc::gen::build<SegmentMetadata>(
      rc::gen::set(&SegmentMetadata::partition, rc::gen::elementOf(kPartitions)),
      rc::gen::set(&SegmentMetadata::log_epoch, rc::gen::elementOf(kEpochs)),
      rc::gen::set(&SegmentMetadata::table, rc::gen::elementOf(kTables)),
      rc::gen::set(&SegmentMetadata::schema_version, rc::gen::element<std::int64_t>(1, 2)),
      rc::gen::set(&SegmentMetadata::media_type,
                   rc::gen::element(MediaType::sqlite, MediaType::rows)),
      rc::gen::set(&SegmentMetadata::scope_digest, rc::gen::elementOf(digests())),
      rc::gen::set(&SegmentMetadata::as_of_commit_seq, rc::gen::element<std::int64_t>(1, 2, 3)),
      rc::gen::set(&SegmentMetadata::row_count, rc::gen::element<std::int64_t>(5, 7)),
      rc::gen::set(&SegmentMetadata::row_cursor, cursor(kRowCursors)),
      rc::gen::set(&SegmentMetadata::next_row_cursor, cursor(kNextCursors)));
}

// Every publication's metadata in the model, in a stable order.
std::vector<SegmentMetadata> known_metadata(const ModelState& s) {
  std::vector<SegmentMetadata> known;
  for (const std::string& id : s.model.ids()) {
    const std::optional<StoredSegment> stored = s.model.get(id);
    for (const SegmentPublication& p : stored->record.publications) {
      known.push_back(p.metadata);
    }
  }
  return known;
}

// The distinct find keys of every publication in the model, in a stable order.
std::vector<SegmentFindKey> known_keys(const ModelState& s) {
  std::vector<SegmentFindKey> keys;
  std::set<std::string> seen;
  for (const SegmentMetadata& m : known_metadata(s)) {
    const SegmentFindKey key = find_key_of(m);
    if (seen.insert(describe(key)).second) keys.push_back(key);
  }
  return keys;
}

// Metadata for a put. A fresh context rarely meets an existing one in this
// universe, so half the time take a known context and either keep its grant
// (re-publication in place, either row count) or change one field of it
// (a neighbouring grant: same find key with another next cursor, another
// digest, pin, epoch, partition, row cursor or table; grants that differ
// only in "p\n" against "p\\n" must stay two grants).
SegmentMetadata pick_metadata(const ModelState& s) {
  enum class Pick { fresh, same_grant, neighbour };
  const std::vector<SegmentMetadata> known = known_metadata(s);
  const Pick pick = known.empty() ? Pick::fresh
                                  : *rc::gen::weightedElement<Pick>({{2, Pick::fresh},
                                                                     {1, Pick::same_grant},
                                                                     {1, Pick::neighbour}});
  if (pick == Pick::fresh) return *any_metadata();
  SegmentMetadata chosen = *rc::gen::elementOf(known);
  const SegmentMetadata other = *any_metadata();
  chosen.row_count = other.row_count;
  if (pick == Pick::neighbour) {
    switch (*rc::gen::inRange(0, 7)) {
      case 0: chosen.next_row_cursor = other.next_row_cursor; break;
      case 1: chosen.scope_digest = other.scope_digest; break;
      case 2: chosen.as_of_commit_seq = other.as_of_commit_seq; break;
      case 3: chosen.log_epoch = other.log_epoch; break;
      case 4: chosen.partition = other.partition; break;  // "p\n" next to "p\\n"
      case 5: chosen.row_cursor = other.row_cursor; break;
      default: chosen.table = other.table; break;
    }
  }
  return chosen;
}

// A find key: mostly one some publication was put under, sometimes any.
SegmentFindKey pick_key(const ModelState& s) {
  const std::vector<SegmentFindKey> known = known_keys(s);
  const bool known_key = !known.empty() && *rc::gen::weightedElement<bool>({{1, false}, {3, true}});
  return known_key ? *rc::gen::elementOf(known) : find_key_of(*any_metadata());
}

// ---- checks --------------------------------------------------------------

// Records compare with their digest and publication lists in_canonical_order:
// SPEC orders neither (the reference's order, D4, has a reference-level test).
void expect_same(const std::optional<SegmentRecord>& store, const std::optional<SegmentRecord>& model,
                 const std::string& what) {
  const auto canonical = [](const std::optional<SegmentRecord>& r) {
    return r ? std::optional(in_canonical_order(*r)) : std::nullopt;
  };
  if (canonical(store) == canonical(model)) return;
  const auto text = [](const std::optional<SegmentRecord>& r) {
    return r ? describe(*r, kStartMs) : std::string("absent");
  };
  RC_FAIL(what + " differs from the model\n  store: " + text(store) + "\n  model: " + text(model));
}

// Invariants 2 and 3 on one record written by puts of this test.
void check_record_shape(const SegmentRecord& record) {
  const auto& pubs = record.publications;
  for (std::size_t i = 0; i < pubs.size(); ++i) {
    for (std::size_t j = i + 1; j < pubs.size(); ++j) {
      RC_ASSERT(!same_grant(pubs[i].metadata, pubs[j].metadata));  // 2: unique keys
    }
  }
  // 3: the primary digest is listed (first, in the reference: D4, not SPEC)
  const std::set<std::string> view(record.scope_digests.begin(), record.scope_digests.end());
  RC_ASSERT(view.contains(record.metadata.scope_digest));
  RC_ASSERT(view.size() == record.scope_digests.size());  // 3: no duplicates
  std::set<std::string> carried;
  for (const SegmentPublication& p : pubs) carried.insert(p.metadata.scope_digest);
  RC_ASSERT(view == carried);  // 3: the digests of the publications, no more
}

// find(key, now): invariants 8 (soundness), 9 (completeness: one of the
// permissible answers, any of them, as SPEC §5.3 names no winner; the D5
// winner is the reference's, test R34) and 10 (no reappearance without a put
// since an absent answer).
void check_find(const ModelState& expected, const std::map<std::string, std::int64_t>& absent_before,
                const SegmentFindKey& key, SegmentStore& store) {
  const std::int64_t now = expected.now;
  const std::optional<SegmentRecord> found = store.find(key, now);
  const std::vector<SegmentRecord> answers = expected.model.find_answers(key, now);
  RC_ASSERT(found.has_value() == !answers.empty());  // 9

  const auto absent = absent_before.find(describe(key));
  if (absent != absent_before.end() && now >= absent->second) {
    RC_ASSERT(!found.has_value());  // 10
  }
  if (!found) return;

  RC_ASSERT(found->publications.size() == 1u);  // 8: narrowed
  const SegmentPublication& p = found->publications.front();
  RC_ASSERT(answers_find(p, key, now));  // 8: 7 key fields, null cursor, live
  RC_ASSERT(found->scope_digests == std::vector<std::string>{key.scope_digest});
  RC_ASSERT(found->metadata == p.metadata);
  RC_ASSERT(found->byte_length == p.byte_length);
  RC_ASSERT(found->created_at_ms == p.created_at_ms);
  RC_ASSERT(found->expires_at_ms == p.expires_at_ms);
  const std::optional<StoredSegment> owner = store.get(found->segment_id);
  RC_ASSERT(owner.has_value());
  const auto& owned = owner->record.publications;
  RC_ASSERT(std::find(owned.begin(), owned.end(), p) != owned.end());  // 8: a real grant

  if (std::find(answers.begin(), answers.end(), *found) == answers.end()) {  // 9: permissible
    std::string allowed;
    for (const SegmentRecord& answer : answers) allowed += "\n  " + describe(answer, kStartMs);
    RC_FAIL("find " + describe(key) + " answered " + describe(*found, kStartMs) +
            ", none of the permissible answers:" + allowed);
  }
}

// After every step: get, stats and find over the whole observable state.
// `absent_before` is the absence log as it stood before the step (empty
// after a successful put, which may legitimately make a key findable).
void check_state(const ModelState& expected,
                 const std::map<std::string, std::int64_t>& absent_before,
                 StoreUnderTest& sut, const std::vector<SegmentFindKey>& extra_keys = {}) {
  SegmentStore& store = sut.store();
  SegmentStoreStats summed;
  for (const std::string& id : observed_ids()) {
    const std::optional<StoredSegment> got = store.get(id);
    const std::optional<StoredSegment> want = expected.model.get(id);
    RC_ASSERT(got.has_value() == want.has_value());  // 11: nothing put is ever lost
    if (!got) continue;
    const bool intact = !expected.corrupted.contains(id);
    // 1: content address (under the injected hasher), unless corrupted
    if (intact) RC_ASSERT(address_of(got->bytes) == id);
    check_record_shape(got->record);  // 2, 3
    RC_ASSERT(got->record.metadata == expected.last_put.at(id));  // 4: latest publisher
    if (intact) RC_ASSERT(got->record.byte_length == static_cast<std::int64_t>(got->bytes.size()));
    expect_same(got->record, want->record, "get " + id);  // 14
    RC_ASSERT(got->bytes == want->bytes);

    ++summed.count;
    summed.bytes += got->record.byte_length;
    ++(got->record.metadata.media_type == MediaType::sqlite ? summed.sqlite_segments
                                                            : summed.rows_segments);
  }
  const SegmentStoreStats stats = store.stats();
  RC_ASSERT(stats == summed);                  // 13: stats describe what get shows
  RC_ASSERT(stats == expected.model.stats());  // 14

  std::vector<SegmentFindKey> keys = known_keys(expected);
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  for (const SegmentFindKey& key : keys) check_find(expected, absent_before, key, store);
}

// Records, for the keys check_state asks about, which are absent at s.now.
void log_absences(ModelState& s, const std::vector<SegmentFindKey>& extra_keys = {}) {
  std::vector<SegmentFindKey> keys = known_keys(s);
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  for (const SegmentFindKey& key : keys) {
    if (!s.model.find_answers(key, s.now).empty()) continue;
    const auto [entry, inserted] = s.absent_since.try_emplace(describe(key), s.now);
    if (!inserted) entry->second = std::min(entry->second, s.now);
  }
}

// Invariants 5–7 on the record a successful put returned, against the
// record as it stood before the put.
void check_put_effects(const std::optional<SegmentRecord>& before, const SegmentRecord& after,
                       const SegmentMetadata& metadata, std::int64_t now) {
  const SegmentPublication* own = nullptr;
  std::vector<SegmentPublication> others;
  for (const SegmentPublication& p : after.publications) {
    RC_ASSERT(p.expires_at_ms > now);  // 5: post-put liveness (ttl > 0)
    if (same_grant(p.metadata, metadata)) {
      RC_ASSERT(own == nullptr);
      own = &p;
    } else {
      others.push_back(p);
    }
  }
  RC_ASSERT(own != nullptr);

  std::optional<SegmentPublication> previous;
  std::vector<SegmentPublication> untouched;  // what non-interference allows to remain
  if (before) {
    for (const SegmentPublication& p : before->publications) {
      if (p.expires_at_ms <= now) continue;  // pruned (D1, D2)
      if (same_grant(p.metadata, metadata)) {
        previous = p;
      } else {
        untouched.push_back(p);
      }
    }
  }
  // 6: own lifetime
  RC_ASSERT(own->metadata == metadata);
  RC_ASSERT(own->expires_at_ms ==
            std::max(previous ? previous->expires_at_ms : now + kTtlMs, now + kTtlMs));
  RC_ASSERT(own->created_at_ms == std::min(previous ? previous->created_at_ms : now, now));
  // 7: non-interference (as a set: SPEC does not order publications)
  const auto canonical = [](const std::vector<SegmentPublication>& publications) {
    SegmentRecord record;
    record.publications = publications;
    return in_canonical_order(std::move(record)).publications;
  };
  RC_ASSERT(canonical(others) == canonical(untouched));
}

// ---- commands ------------------------------------------------------------

struct Put : Command {
  int payload_index;
  SegmentMetadata metadata;

  explicit Put(const ModelState& s)
      : payload_index(*rc::gen::weightedElement<int>({{3, 0}, {3, 1}, {3, 2}, {1, kColliding}})),
        metadata(pick_metadata(s)) {}

  std::string id() const { return address_of(payload(payload_index)); }

  void apply(ModelState& s) const override {
    if (!s.model.put(id(), metadata, payload(payload_index), s.now)) return;
    s.last_put[id()] = metadata;
    s.absent_since.clear();
    log_absences(s, {find_key_of(metadata)});
  }

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    const ModelState s1 = nextState(s0);
    const Bytes& bytes = payload(payload_index);
    if (s0.model.collides(id(), bytes)) {
      // 12: refused, naming the id; the state check below proves nothing changed.
      try {
        sut.store().put(metadata, bytes, s0.now);
        RC_FAIL("a put of different bytes under a stored id was accepted (§5.1)");
      } catch (const SegmentCollision& collision) {
        RC_ASSERT(collision.segment_id() == id());
      }
      check_state(s1, s0.absent_since, sut, {find_key_of(metadata)});
      return;
    }
    const SegmentRecord returned = sut.store().put(metadata, bytes, s0.now);
    expect_same(returned, s1.model.get(id())->record, "the record put returned");
    const std::optional<StoredSegment> before = s0.model.get(id());
    check_put_effects(before ? std::optional(before->record) : std::nullopt, returned, metadata,
                      s0.now);
    check_state(s1, {}, sut, {find_key_of(metadata)});
  }

  void show(std::ostream& os) const override {
    os << "put(payload " << payload_index << (payload_index == kColliding ? " (colliding)" : "")
       << ", " << describe(metadata) << ") at now";
  }
};

struct Get : Command {
  std::string id = *rc::gen::elementOf(observed_ids());

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    const std::optional<StoredSegment> got = sut.store().get(id);
    const std::optional<StoredSegment> want = s0.model.get(id);
    expect_same(got ? std::optional(got->record) : std::nullopt,
                want ? std::optional(want->record) : std::nullopt, "get " + id);
    check_state(s0, s0.absent_since, sut);
  }

  void show(std::ostream& os) const override { os << "get(" << id << ")"; }
};

struct Find : Command {
  SegmentFindKey key;

  explicit Find(const ModelState& s) : key(pick_key(s)) {}

  void apply(ModelState& s) const override { log_absences(s, {key}); }

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    check_state(s0, s0.absent_since, sut, {key});
  }

  void show(std::ostream& os) const override { os << "find(" << describe(key) << ") at now"; }
};

// Moves the caller's clock by `step` ms; nothing else changes.
struct ClockStep : Command {
  std::string name;
  std::int64_t step;

  ClockStep(std::string name, std::int64_t step) : name(std::move(name)), step(step) {}

  void apply(ModelState& s) const override {
    s.now += step;
    log_absences(s);
  }

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    check_state(nextState(s0), s0.absent_since, sut);
  }

  void show(std::ostream& os) const override { os << name << "(" << step << ")"; }
};

// The clock moves forward, often by exactly the TTL or one off it.
struct Advance : ClockStep {
  Advance()
      : ClockStep("advance", *rc::gen::weightedOneOf<std::int64_t>(
                                 {{1, rc::gen::element<std::int64_t>(0, 1, kTtlMs - 1, kTtlMs,
                                                                     kTtlMs + 1)},
                                  {2, rc::gen::inRange<std::int64_t>(0, 2 * kTtlMs + 1)}})) {}
};

// The clock lands on a grant's expiry or one millisecond either side: the
// boundary every expiry rule shares (D1: expired iff expiresAt <= now).
struct ToExpiry : ClockStep {
  explicit ToExpiry(const ModelState& s) : ClockStep("to_expiry", step_to_an_expiry(s)) {}

  static std::int64_t step_to_an_expiry(const ModelState& s) {
    std::vector<std::int64_t> expiries;
    for (const std::string& id : s.model.ids()) {
      const std::optional<StoredSegment> stored = s.model.get(id);
      for (const SegmentPublication& p : stored->record.publications) {
        expiries.push_back(p.expires_at_ms);
      }
    }
    RC_PRE(!expiries.empty());
    return *rc::gen::elementOf(expiries) - s.now + *rc::gen::element<std::int64_t>(-1, 0, 0, 1);
  }
};

// The caller's clock is not monotonic: now jumps, backwards as well.
struct Jump : ClockStep {
  Jump() : ClockStep("jump", *rc::gen::inRange<std::int64_t>(-3 * kTtlMs, 3 * kTtlMs + 1)) {}
};

// The stored bytes of an id lose their first byte behind the store's back
// (disk damage, a foreign writer). get hands back what is stored without
// re-hashing it (R9), and every later put of that id is a collision (R7).
struct Corrupt : Command {
  std::string id;

  explicit Corrupt(const ModelState& s) {
    RC_PRE(s.has_sql);
    // Bytes left to drop (SQLite's substr of an empty blob is NULL).
    std::vector<std::string> ids;
    for (const std::string& id : s.model.ids()) {
      if (!s.model.get(id)->bytes.empty()) ids.push_back(id);
    }
    RC_PRE(!ids.empty());
    id = *rc::gen::elementOf(ids);
  }

  void apply(ModelState& s) const override {
    s.model.corrupt(id);
    s.corrupted.insert(id);
  }

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    sut.corrupt_stored_bytes(id);
    check_state(nextState(s0), s0.absent_since, sut);
  }

  void show(std::ostream& os) const override { os << "corrupt(" << id.substr(0, 15) << "…)"; }
};

// A download at the handler level (§5.5) with a fake resolver, at the
// current clock: mostly aimed at a publication the model holds (its
// partition, epoch and scope set), answered as the invariant-15 oracle over
// the model says, corrupted bytes included.
struct Download : Command {
  DownloadDraw draw;

  explicit Download(const ModelState& s) {
    RC_PRE(s.downloads);
    draw.now_ms = s.now;
    draw.segment_id = *rc::gen::elementOf(observed_ids());
    draw.partition = *rc::gen::elementOf(kPartitions);
    draw.log_epoch = *rc::gen::elementOf(kEpochs);
    draw.requested = *rc::gen::elementOf(scope_sets());
    std::vector<std::pair<std::string, SegmentPublication>> published;
    for (const std::string& id : s.model.ids()) {
      const std::optional<StoredSegment> stored = s.model.get(id);
      for (const SegmentPublication& p : stored->record.publications) published.emplace_back(id, p);
    }
    if (!published.empty() && *rc::gen::weightedElement<bool>({{3, true}, {1, false}})) {
      const auto& [id, target] = *rc::gen::elementOf(published);
      draw.segment_id = id;
      draw.partition = target.metadata.partition;
      draw.log_epoch = target.metadata.log_epoch;
      for (std::size_t i = 0; i < digests().size(); ++i) {
        if (digests()[i] == target.metadata.scope_digest) draw.requested = scope_sets()[i];
      }
    }
    // Mostly every grant; sometimes none (revoked), or the resolver fails.
    draw.allowed = *rc::gen::weightedElement<ScopeMap>(
        {{6, {{"project_id", {"*"}}, {"org_id", {"*"}}}}, {1, {}}});
    draw.mode = *rc::gen::weightedElement<ResolverMode>(
        {{10, ResolverMode::fixed}, {1, ResolverMode::throws}});
  }

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    check_download(sut.store(), model_served_tables(), draw, s0.model.get(draw.segment_id));
  }

  void show(std::ostream& os) const override {
    os << "download(" << draw.segment_id.substr(0, 15) << "… in " << printable(draw.partition)
       << " " << printable(draw.log_epoch) << ", scopes " << scopes_text(*draw.requested)
       << ", granted " << scopes_text(draw.allowed)
       << (draw.mode == ResolverMode::throws ? ", resolver throws" : "") << ") at now";
  }
};

// A new store over the same database, as a restarted process would open it.
struct Reopen : Command {
  explicit Reopen(const ModelState& s) { RC_PRE(s.persists); }

  void run(const ModelState& s0, StoreUnderTest& sut) const override {
    sut.reopen();
    check_state(s0, s0.absent_since, sut);
  }

  void show(std::ostream& os) const override { os << "reopen()"; }
};

class PropModel : public harness::SegmentStoreTest {};
SSP_ALL_BACKENDS(PropModel);

TEST_P(PropModel, PROP_MODEL_StoreMatchesModel) {
  harness::record_spec("§5.1", "PROP_MODEL");
  SSP_GRANT_CAPABILITY(hasher, candidate(), harness::Capability::injected_hasher);
  check_property([backend = backend(), hasher] {
    StoreUnderTest sut(backend, hasher);
    ModelState initial;
    initial.persists = harness::current_candidate().persists(backend);
    initial.has_sql = sut.has_sql();
    initial.downloads = harness::current_candidate().has(harness::Capability::download);
    // Repetition weighs the choice: puts and finds are the interesting steps.
    rc::state::check(initial, sut,
                     rc::state::gen::execOneOfWithArgs<Put, Put, Put, Find, Find, Get, Advance,
                                                       ToExpiry, Jump, Reopen, Corrupt, Download,
                                                       Download>());
  });
}

}  // namespace
}  // namespace ssp::properties
