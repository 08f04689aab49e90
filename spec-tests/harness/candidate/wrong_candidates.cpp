#include "harness/candidate/wrong_candidates.hpp"

#include <stdexcept>

#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

enum class Breakage { finds_nothing, wrong_bytes, throws, refuses_nothing };

struct WrongCandidateName {
  const char* name;
  Breakage breakage;
};
constexpr WrongCandidateName kWrongCandidates[] = {
    {"finds-nothing", Breakage::finds_nothing},
    {"wrong-bytes", Breakage::wrong_bytes},
    {"throws", Breakage::throws},
    {"refuses-nothing", Breakage::refuses_nothing},
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

 private:
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

  std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                   const SegmentStoreOptions& options) override {
    return std::make_unique<WrongSegmentStore>(base_.open_segment_store(location, options),
                                               breakage_);
  }

  std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) override {
    return std::make_unique<WrongServerStorage>(base_.open_server_storage(location, options),
                                                breakage_);
  }

  // The rules that need no store are the base's, unbroken; the download and
  // signed-URL decisions still read the broken stores they are handed.
  ScopeArea& scope() override { return base_.scope(); }
  RowArea& rows() override { return base_.rows(); }
  SchemaArea& schema() override { return base_.schema(); }
  DownloadArea& download() override { return base_.download(); }
  SignedUrlArea& signed_urls() override { return base_.signed_urls(); }
  ErrorCatalogArea& error_catalog() override { return base_.error_catalog(); }
  PushArea& push() override { return base_.push(); }
  CommandArea& commands() override { return base_.commands(); }

 private:
  std::string name_;
  Breakage breakage_;
  Candidate& base_;
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
