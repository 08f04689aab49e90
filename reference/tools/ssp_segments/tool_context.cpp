#include "tool_context.hpp"

#include <stdexcept>

#include "arguments.hpp"
#include "segment_database_check.hpp"
#include "ssp/postgres/postgres_segment_store.hpp"
#include "ssp/sqlite/sqlite_segment_store.hpp"

namespace ssp::tools {

ToolContext::ToolContext(DatabaseTarget target, bool pretty, std::ostream& out)
    : target_(std::move(target)), pretty_(pretty), out_(out) {}

void ToolContext::require_database() {
  if (target_.kind == DatabaseTarget::Kind::none) {
    throw UsageError("no database: give --sqlite PATH or --pg DSN before the command");
  }
  if (!database_checked_) {
    require_segment_database(target_);
    database_checked_ = true;
  }
}

SegmentStore& ToolContext::store() {
  if (!store_) {
    require_database();
    SegmentStoreOptions options;
    options.read_only = true;
    store_ = target_.kind == DatabaseTarget::Kind::sqlite
                 ? open_sqlite_segment_store(target_.sqlite_path, options)
                 : open_postgres_segment_store(target_.pg_dsn, target_.pg_schema, options);
  }
  return *store_;
}

SegmentInspector& ToolContext::inspector() {
  if (!inspector_) {
    require_database();
    inspector_ = target_.kind == DatabaseTarget::Kind::sqlite
                     ? open_sqlite_segment_inspector(target_.sqlite_path)
                     : open_postgres_segment_inspector(target_.pg_dsn, target_.pg_schema);
  }
  return *inspector_;
}

void ToolContext::print(const nlohmann::ordered_json& answer) {
  out_ << answer.dump(pretty_ ? 2 : -1, ' ', /*ensure_ascii=*/false,
                      nlohmann::ordered_json::error_handler_t::replace)
       << '\n';
  out_.flush();
  if (!out_) throw std::runtime_error("cannot write the answer to stdout");
}

}  // namespace ssp::tools
