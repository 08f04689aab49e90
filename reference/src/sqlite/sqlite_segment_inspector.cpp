#include "../sql/segment_inspection.hpp"
#include "sqlite_connection.hpp"
#include "sqlite_segment_schema.hpp"
#include "ssp/segments/segment_inspector.hpp"

namespace ssp {
namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

// Readers wait this long for a writer's commit in rollback-journal files.
constexpr std::int64_t kBusyWaitMs = 30'000;

class SqliteSegmentInspector final : public sql::IdQueryInspector {
 public:
  explicit SqliteSegmentInspector(const std::string& path)
      : connection_(path, /*read_only=*/true, kBusyWaitMs) {
    sqlite::emulate_segment_upgrade(connection_);
  }

  void for_each_segment(const SegmentVisitor& visit) override {
    Transaction snapshot(connection_, Transaction::Kind::read);
    Statement rows = connection_.prepare(sql::kAllSegmentBytes);
    while (rows.step()) {
      const std::string id = rows.text("segment_id");
      visit(id, rows.blob("bytes"));
    }
  }

 private:
  std::vector<std::string> ids(const char* query_sql) override {
    Statement query = connection_.prepare(query_sql);
    std::vector<std::string> out;
    while (query.step()) out.push_back(query.text("segment_id"));
    return out;
  }

  Connection connection_;
};

}  // namespace

std::unique_ptr<SegmentInspector> open_sqlite_segment_inspector(const std::string& path) {
  return std::make_unique<SqliteSegmentInspector>(path);
}

}  // namespace ssp
