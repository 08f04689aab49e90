#include "harness/candidate/wrong_candidates.hpp"

#include <algorithm>
#include <stdexcept>

#include "harness/models/scope_filter_model.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

enum class Breakage {
  finds_nothing,
  wrong_bytes,
  throws,
  refuses_nothing,
  long_urls,
  leaks_a_scope,
};

struct WrongCandidateName {
  const char* name;
  Breakage breakage;
};
constexpr WrongCandidateName kWrongCandidates[] = {
    {"finds-nothing", Breakage::finds_nothing},
    {"wrong-bytes", Breakage::wrong_bytes},
    {"throws", Breakage::throws},
    {"refuses-nothing", Breakage::refuses_nothing},
    {"long-urls", Breakage::long_urls},
    {"leaks-a-scope", Breakage::leaks_a_scope},
};

[[noreturn]] void throw_from(const char* method) {
  throw std::runtime_error(std::string("wrong:throws candidate: ") + method + " always throws");
}

// What `call` answers, or, for refuses-nothing, a default answer instead of
// any refusal or error the reference throws on purpose.
template <typename Call>
auto answer(Breakage breakage, Call call) -> decltype(call()) {
  if (breakage != Breakage::refuses_nothing) return call();
  try {
    return call();
  } catch (const SspError&) {
    return decltype(call())();
  }
}

// Differs from `bytes` in every case: the first byte flipped, or one byte
// added to an empty value.
Bytes damaged(Bytes bytes) {
  if (bytes.empty()) {
    bytes.push_back(0x5a);
  } else {
    bytes[0] ^= 0xff;
  }
  return bytes;
}

class WrongSegmentStore final : public SegmentStore {
 public:
  WrongSegmentStore(std::unique_ptr<SegmentStore> inner, Breakage breakage)
      : inner_(std::move(inner)), breakage_(breakage) {}

  SegmentRecord put(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                    std::int64_t now_ms) override {
    if (breakage_ == Breakage::throws) throw_from("put");
    return answer(breakage_, [&] { return inner_->put(metadata, bytes, now_ms); });
  }

  std::optional<StoredSegment> get(const std::string& segment_id) override {
    switch (breakage_) {
      case Breakage::finds_nothing: return std::nullopt;
      case Breakage::throws: throw_from("get");
      case Breakage::refuses_nothing:
        return answer(breakage_, [&] { return inner_->get(segment_id); });
      case Breakage::wrong_bytes: break;
      case Breakage::long_urls:      // never wraps a store
      case Breakage::leaks_a_scope:  // never wraps a store
        return inner_->get(segment_id);
    }
    std::optional<StoredSegment> stored = inner_->get(segment_id);
    if (stored) stored->bytes = damaged(std::move(stored->bytes));
    return stored;
  }

  std::optional<SegmentRecord> find(const SegmentFindKey& key, std::int64_t now_ms) override {
    if (breakage_ == Breakage::finds_nothing) return std::nullopt;
    if (breakage_ == Breakage::throws) throw_from("find");
    return answer(breakage_, [&] { return inner_->find(key, now_ms); });
  }

  SegmentStoreStats stats() override {
    if (breakage_ == Breakage::throws) throw_from("stats");
    return answer(breakage_, [&] { return inner_->stats(); });
  }

 private:
  std::unique_ptr<SegmentStore> inner_;
  Breakage breakage_;
};

// Mints a URL for any TTL, valid for all of it: past §5.4's 15 minutes too.
// Everything else is the base's. (The token inside is the base's, for the
// bound; only the expiry the answer states is stretched.)
class LongUrlSigner final : public SignedUrlArea {
 public:
  explicit LongUrlSigner(SignedUrlArea& base) : base_(base) {}

  std::string audience(const UrlSigningKey& key, const std::string& partition) override {
    return base_.audience(key, partition);
  }
  SignedSegmentUrl mint(const UrlSigningKey& key, const std::string& segment_id,
                        const std::string& scope_digest, const std::string& partition,
                        std::int64_t now_ms, std::int64_t ttl_ms) override {
    SignedSegmentUrl url = base_.mint(key, segment_id, scope_digest, partition, now_ms,
                                      std::min(ttl_ms, kMaxSignedUrlTtlMs));
    url.url_expires_at_ms = now_ms + ttl_ms;
    return url;
  }
  std::string sign_payload(const UrlSigningKey& key, std::string_view payload_json) override {
    return base_.sign_payload(key, payload_json);
  }
  SignedUrlVerdict verify(const UrlSigningKey& key, std::string_view token,
                          const std::string& segment_id, SegmentStore& store,
                          const CurrentEpochLookup& current_epoch, std::int64_t now_ms) override {
    return base_.verify(key, token, segment_id, store, current_epoch, now_ms);
  }

 private:
  SignedUrlArea& base_;
};

class WrongServerStorage final : public storage::ServerStorage {
 public:
  WrongServerStorage(std::unique_ptr<storage::ServerStorage> inner, Breakage breakage)
      : inner_(std::move(inner)), breakage_(breakage) {}

  storage::SchemaReport ensure_schema(const storage::CompiledSchema& schema) override {
    if (breakage_ == Breakage::throws) throw_from("ensure_schema");
    return answer(breakage_, [&] { return inner_->ensure_schema(schema); });
  }

  storage::SchemaReport preview_schema(const storage::CompiledSchema& schema) override {
    if (breakage_ == Breakage::throws) throw_from("preview_schema");
    return answer(breakage_, [&] { return inner_->preview_schema(schema); });
  }

  std::optional<storage::StoredRow> get_row(const std::string& partition, const std::string& table,
                                            const std::string& row_id) override {
    switch (breakage_) {
      case Breakage::finds_nothing: return std::nullopt;
      case Breakage::throws: throw_from("get_row");
      case Breakage::refuses_nothing:
        return answer(breakage_, [&] { return inner_->get_row(partition, table, row_id); });
      case Breakage::wrong_bytes: break;
      case Breakage::long_urls:  // never wraps
      case Breakage::leaks_a_scope:
        return inner_->get_row(partition, table, row_id);
    }
    std::optional<storage::StoredRow> row = inner_->get_row(partition, table, row_id);
    if (row) row->payload = damaged(std::move(row->payload));
    return row;
  }

  void upsert_row(const std::string& partition, const std::string& table,
                  const storage::StoredRow& row) override {
    if (breakage_ == Breakage::throws) throw_from("upsert_row");
    answer(breakage_, [&] { inner_->upsert_row(partition, table, row); });
  }

  std::optional<storage::Row> read_projection(const std::string& partition,
                                              const std::string& table,
                                              const std::string& row_id) override {
    if (breakage_ == Breakage::finds_nothing) return std::nullopt;
    if (breakage_ == Breakage::throws) throw_from("read_projection");
    return answer(breakage_, [&] { return inner_->read_projection(partition, table, row_id); });
  }

  // The push path is not broken here (the wrong candidates pin the harness
  // against storage and segment answers): delegated unchanged.
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return inner_->begin(partition);
  }
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& partition, const std::string& client_id,
      const std::string& client_commit_id) override {
    return inner_->get_push_result(partition, client_id, client_commit_id);
  }
  std::int64_t get_max_commit_seq(const std::string& partition) override {
    return inner_->get_max_commit_seq(partition);
  }
  std::vector<storage::Commit> read_commit_window(const std::string& partition,
                                                  std::int64_t after_seq,
                                                  std::int64_t limit) override {
    return inner_->read_commit_window(partition, after_seq, limit);
  }
  storage::AuthoritativeRead query_authoritative(
      const std::string& partition, const std::string& table,
      const std::vector<std::string>& row_ids) override {
    return inner_->query_authoritative(partition, table, row_ids);
  }

  std::vector<storage::WindowCommit> read_table_window(
      const std::string& partition, const storage::TableWindowQuery& query) override {
    if (breakage_ == Breakage::throws) throw_from("read_table_window");
    std::vector<storage::WindowCommit> window = inner_->read_table_window(partition, query);
    if (breakage_ == Breakage::leaks_a_scope) leak_one_change(partition, query, window);
    return window;
  }

  // The partition registry is not broken here: delegated unchanged.
  storage::PartitionEntry touch_partition(const std::string& partition,
                                          std::int64_t authenticated_at_ms,
                                          const std::string& initial_log_epoch) override {
    return inner_->touch_partition(partition, authenticated_at_ms, initial_log_epoch);
  }
  storage::PartitionEntry rotate_partition_log_epoch(const std::string& partition,
                                                     const std::string& log_epoch,
                                                     std::int64_t at_ms) override {
    return inner_->rotate_partition_log_epoch(partition, log_epoch, at_ms);
  }
  std::optional<std::string> get_partition_log_epoch(const std::string& partition) override {
    return inner_->get_partition_log_epoch(partition);
  }
  std::vector<storage::PartitionEntry> list_partition_registry() override {
    return inner_->list_partition_registry();
  }

 private:
  // Adds to `window` the first change of the query's table in its seq range
  // whose stored scopes the filter does not allow, if the log holds one.
  void leak_one_change(const std::string& partition, const storage::TableWindowQuery& query,
                       std::vector<storage::WindowCommit>& window) {
    constexpr std::int64_t kWholeLog = 1'000'000;
    for (const storage::Commit& commit :
         inner_->read_commit_window(partition, query.after_seq, kWholeLog)) {
      if (commit.commit_seq > query.through_seq) return;
      for (const storage::Change& change : commit.entry.changes) {
        if (change.table != query.table || filter_allows(query.scope_filter, change.scopes)) {
          continue;
        }
        auto at = std::find_if(window.begin(), window.end(), [&](const auto& kept) {
          return kept.commit_seq >= commit.commit_seq;
        });
        if (at == window.end() || at->commit_seq != commit.commit_seq) {
          at = window.insert(at, storage::WindowCommit{commit.commit_seq,
                                                       commit.entry.created_at_ms,
                                                       commit.entry.actor_id, {}});
        }
        at->changes.push_back(change);
        return;
      }
    }
  }

  std::unique_ptr<storage::ServerStorage> inner_;
  Breakage breakage_;
};

class WrongCandidate final : public Candidate {
 public:
  WrongCandidate(std::string name, Breakage breakage, Candidate& base)
      : name_(std::move(name)), breakage_(breakage), base_(base) {}

  std::string name() const override { return "wrong:" + name_; }
  bool supports(Backend backend) const override { return base_.supports(backend); }
  bool persists(Backend backend) const override { return base_.persists(backend); }

  // long-urls breaks the signer alone, leaks-a-scope the storage's window:
  // their segment stores are the base's.
  std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                   const SegmentStoreOptions& options) override {
    auto store = base_.open_segment_store(location, options);
    if (breakage_ == Breakage::long_urls || breakage_ == Breakage::leaks_a_scope) return store;
    return std::make_unique<WrongSegmentStore>(std::move(store), breakage_);
  }

  std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) override {
    auto storage = base_.open_server_storage(location, options);
    if (breakage_ == Breakage::long_urls) return storage;
    return std::make_unique<WrongServerStorage>(std::move(storage), breakage_);
  }

  // The rules that need no store are the base's, unbroken; the download and
  // signed-URL decisions still read the broken stores they are handed.
  ScopeArea& scope() override { return base_.scope(); }
  RowArea& rows() override { return base_.rows(); }
  SchemaArea& schema() override { return base_.schema(); }
  DownloadArea& download() override { return base_.download(); }
  SignedUrlArea& signed_urls() override {
    if (breakage_ != Breakage::long_urls) return base_.signed_urls();
    if (!long_urls_) long_urls_ = std::make_unique<LongUrlSigner>(base_.signed_urls());
    return *long_urls_;
  }
  ErrorCatalogArea& error_catalog() override { return base_.error_catalog(); }
  PushArea& push() override { return base_.push(); }
  CommandArea& commands() override { return base_.commands(); }

 private:
  std::string name_;
  Breakage breakage_;
  Candidate& base_;
  std::unique_ptr<LongUrlSigner> long_urls_;
};

}  // namespace

std::vector<std::string> wrong_candidate_names() {
  std::vector<std::string> names;
  for (const auto& entry : kWrongCandidates) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<Candidate> make_wrong_candidate(std::string_view name, Candidate& base) {
  for (const auto& entry : kWrongCandidates) {
    if (name == entry.name)
      return std::make_unique<WrongCandidate>(entry.name, entry.breakage, base);
  }
  return nullptr;
}

}  // namespace ssp::harness
