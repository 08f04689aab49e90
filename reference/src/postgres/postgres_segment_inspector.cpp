#include <pqxx/pqxx>

#include "../sql/segment_inspection.hpp"
#include "pqxx_guard.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/segments/segment_inspector.hpp"

namespace ssp {
namespace {

constexpr const char* kInspectorName = "PostgresSegmentInspector";

// Rows fetched per round trip of the scan: bounds the memory held at once,
// since a segment can be large.
constexpr int kScanBatchRows = 16;

using ReadOnlyTransaction = pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>;

class PostgresSegmentInspector final : public sql::IdQueryInspector {
 public:
  PostgresSegmentInspector(const std::string& dsn, const std::string& schema) {
    guarded([&] {
      connection_ = std::make_unique<pqxx::connection>(dsn);
      pqxx::nontransaction settings(*connection_);
      settings.exec("SET default_transaction_read_only = on");
      settings.exec("SET search_path TO " + connection_->quote_name(schema));
      return 0;
    });
  }

  void for_each_segment(const SegmentVisitor& visit) override {
    guarded([&] {
      ReadOnlyTransaction txn(*connection_);
      txn.exec(std::string("DECLARE ssp_segment_scan NO SCROLL CURSOR FOR ") +
               sql::kAllSegmentBytes);
      const std::string fetch =
          "FETCH FORWARD " + std::to_string(kScanBatchRows) + " FROM ssp_segment_scan";
      for (pqxx::result batch = txn.exec(fetch); !batch.empty(); batch = txn.exec(fetch)) {
        for (const auto& row : batch) {
          const pqxx::binarystring bytes(row["bytes"]);
          visit(row["segment_id"].c_str(), {bytes.data(), bytes.size()});
        }
      }
      return 0;
    });
  }

 private:
  std::vector<std::string> ids(const char* query_sql) override {
    return guarded([&] {
      ReadOnlyTransaction txn(*connection_);
      std::vector<std::string> out;
      for (const auto& row : txn.exec(query_sql)) out.emplace_back(row["segment_id"].c_str());
      return out;
    });
  }

  // Failures (connection, missing tables) become StorageError naming the inspector.
  template <typename Work>
  static auto guarded(Work&& work) -> decltype(work()) {
    return postgres::guard_pqxx(kInspectorName, std::forward<Work>(work));
  }

  std::unique_ptr<pqxx::connection> connection_;
};

}  // namespace

std::unique_ptr<SegmentInspector> open_postgres_segment_inspector(const std::string& dsn,
                                                                  const std::string& schema) {
  return std::make_unique<PostgresSegmentInspector>(dsn, schema);
}

}  // namespace ssp
