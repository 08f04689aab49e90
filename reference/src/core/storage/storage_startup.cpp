#include <algorithm>
#include <set>

#include "ssp/encoding/json_text.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/schema_startup.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {
namespace {

constexpr const char* kDash = " \u2014 ";  // em dash with a space either side, as upstream

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Core tables, the legacy wire_version upgrade and the marker table, all
// idempotent: on an up-to-date database none of them changes anything.
void create_core_tables(SchemaSession& session) {
  const SqlDialect dialect = session.dialect();
  for (const std::string& statement : core_ddl(dialect)) session.execute(statement);
  if (!contains(session.physical_columns("sync_clients"), "wire_version")) {
    session.execute(wire_version_upgrade_ddl(dialect));
  }
  session.execute(marker_ddl(dialect));
}

// §2.2 step 5a.
void verify_layouts(const CompiledSchema& schema, const StoredMarker& marker) {
  const StoredLayouts stored = parse_layouts(marker.layouts);
  if (const auto mismatch = compare_layouts(layouts_of(schema), stored)) {
    throw SchemaRefusal(RefusalReason::layouts_disagree,
                        layouts_disagree_message(schema.version, mismatch->describe()),
                        mismatch->table, mismatch->column);
  }
}

// §2.2 step 5b and §4.4: the six internal columns first, then (Q3) the
// projection columns of a materialized table, which every upsert names.
void verify_physical(SchemaSession& session, const CompiledSchema& schema) {
  for (const CompiledTable& table : schema.tables) {
    const std::vector<std::string> present = session.physical_columns(table.name());
    std::vector<std::string> required(kInternalColumns.begin(), kInternalColumns.end());
    if (table.materialized) {
      for (const Column& column : table.columns()) required.push_back(column.name);
    }
    for (const std::string& column : required) {
      if (contains(present, column)) continue;
      throw SchemaRefusal(RefusalReason::physical_mismatch,
                          "physical tables disagree with the configured schema at version " +
                              std::to_string(schema.version) + " (table " +
                              quoted_name(table.name()) + " column " + quoted_name(column) +
                              " is missing)" + kDash +
                              "refusing to serve a database the running code cannot write",
                          table.name(), column);
    }
  }
}

// What §3 steps 3 and 5 learned about one configured table before anything
// changes.
struct TablePlan {
  const CompiledTable* table = nullptr;
  std::vector<std::string> physical;  // empty: the table does not exist
  std::vector<std::string> indexes;   // free-standing indexes on it
  std::size_t stored_columns = 0;     // columns its payloads were written with
  bool migrate = false;               // the layout grew: re-encode payloads
  bool backfill = false;              // projection columns just appeared: fill them

  bool existed() const { return !physical.empty(); }
};

TablePlan plan_table(SchemaSession& session, const CompiledTable& table,
                     const StoredLayouts& stored_layouts) {
  TablePlan plan;
  plan.table = &table;
  plan.physical = session.physical_columns(table.name());
  if (plan.existed()) plan.indexes = session.free_standing_indexes(table.name());
  const StoredTable* stored = stored_layouts.find(table.name());
  // A fresh or pre-layout table: there is nothing to reason about (upstream).
  if (stored == nullptr || !plan.existed()) return plan;
  if (!stored->is_array) {
    throw SchemaRefusal(RefusalReason::layouts_unreadable,
                        "stored schema layouts for table " + quoted_name(table.name()) +
                            " are not an array of columns" + kDash + "refusing to migrate",
                        table.name());
  }
  const std::vector<ColumnLayout> layout = table.layout();
  assert_append_only(table.name(), *stored, layout);
  plan.stored_columns = stored->columns.size();
  plan.migrate = plan.stored_columns < layout.size();
  plan.backfill =
      table.materialized &&
      std::any_of(
          layout.begin(), layout.begin() + static_cast<std::ptrdiff_t>(plan.stored_columns),
          [&](const ColumnLayout& column) { return !contains(plan.physical, column.name); });
  return plan;
}

void run(SchemaSession& session, const std::string& statement, SchemaReport& report) {
  session.execute(statement);
  report.statements.push_back(statement);
}

// §3 step 4: every DROP before every CREATE, so an index name may move
// between tables in one bump.
void apply_ddl(SchemaSession& session, const std::vector<TablePlan>& plans, SchemaReport& report) {
  const SqlDialect dialect = session.dialect();
  for (const TablePlan& plan : plans) {
    const auto& declared = plan.table->declared.indexes;
    for (const std::string& index : plan.indexes) {
      const bool owned = index.rfind(kOwnedIndexPrefix, 0) == 0 ||
                         std::any_of(declared.begin(), declared.end(),
                                     [&](const Index& d) { return d.name == index; });
      if (owned) run(session, drop_index_ddl(index), report);
    }
  }
  for (const TablePlan& plan : plans) {
    const CompiledTable& table = *plan.table;
    if (!plan.existed()) {
      run(session, create_table_ddl(table, dialect), report);
    } else {
      if (table.materialized) {
        for (const Column& column : table.columns()) {
          if (!contains(plan.physical, column.name)) {
            run(session, add_projection_column_ddl(table.name(), column, dialect), report);
          }
        }
      }
      if (!contains(plan.physical, kColumnVersionsColumn)) {
        run(session, add_column_versions_ddl(table.name(), dialect), report);
      }
    }
    if (table.materialized) {
      for (const Index& index : table.declared.indexes) {
        run(session, create_index_ddl(table.name(), index), report);
      }
    }
  }
}

// §3 step 6: re-encode every payload under the grown layout (NULLs appended)
// and refresh the projection, one keyset page at a time.
void rewrite_rows(SchemaSession& session, const TablePlan& plan, std::size_t page_rows,
                  SchemaReport& report) {
  const CompiledTable& table = *plan.table;
  const std::vector<ColumnLayout> layout = table.layout();
  const std::span<const ColumnLayout> stored_layout(layout.data(), plan.stored_columns);
  std::optional<RowKey> after;
  while (true) {
    const std::vector<StoredPayload> page = session.payload_page(table.name(), after, page_rows);
    for (const StoredPayload& row : page) {
      Row values;
      try {
        values = decode_row(stored_layout, row.payload);
      } catch (const RowDecodeError& error) {
        throw SchemaRefusal(RefusalReason::row_undecodable,
                            "table " + quoted_name(table.name()) + " row " +
                                quoted_name(row.key.row_id) + " in partition " +
                                quoted_name(row.key.partition) +
                                " does not decode under its stored layout (" + error.what() + ")" +
                                kDash + "refusing to migrate",
                            table.name(), error.column());
      }
      Bytes payload = row.payload;
      if (plan.migrate) {
        values.resize(layout.size(), std::monostate{});
        payload = encode_row(layout, values);
      }
      session.rewrite_row(table, row.key, values, payload);
      ++report.rewritten_rows;
    }
    if (page.size() < page_rows) return;
    after = page.back().key;
  }
}

void migrate(SchemaSession& session, const CompiledSchema& schema,
             const std::optional<StoredMarker>& marker, const StartupOptions& options,
             SchemaReport& report) {
  const StoredLayouts stored = marker ? parse_layouts(marker->layouts) : StoredLayouts{};
  // Plans first: every refusal is raised before the first change.
  std::vector<TablePlan> plans;
  for (const CompiledTable& table : schema.tables)
    plans.push_back(plan_table(session, table, stored));

  // §3 step 2: only the stored layouts say what is retired; a table neither
  // configured nor stored (an operator's own) is never touched.
  for (const StoredTable& table : stored.tables) {
    if (!schema.find(table.table)) report.retired_tables.push_back(table.table);
  }
  std::sort(report.retired_tables.begin(), report.retired_tables.end(), utf16_less);
  for (const std::string& table : report.retired_tables) {
    session.delete_table_references(table);
    run(session, drop_table_ddl(table), report);
  }

  apply_ddl(session, plans, report);
  for (const TablePlan& plan : plans) {
    if (plan.migrate || plan.backfill) {
      rewrite_rows(session, plan, options.rewrite_page_rows, report);
    }
  }
  session.write_marker(schema.version, layouts_json(schema));
}

}  // namespace

std::string stored_newer_message(std::int64_t stored, std::int64_t configured) {
  return "stored schema version " + std::to_string(stored) +
         " is newer than the configured schema (" + std::to_string(configured) + ")" + kDash +
         "refusing to run an older server against a migrated database";
}

std::string layouts_disagree_message(std::int64_t configured, const std::string& mismatch) {
  return "stored schema layouts disagree with the configured schema at version " +
         std::to_string(configured) + " (" + mismatch + ")" + kDash +
         "refusing to serve a database whose stored rows the running code cannot decode";
}

void assert_append_only(const std::string& table, const StoredTable& stored,
                        const std::vector<ColumnLayout>& configured) {
  const std::string prefix = "table " + quoted_name(table) + ": ";
  if (stored.columns.size() > configured.size()) {
    throw SchemaRefusal(RefusalReason::not_append_only,
                        prefix + "the schema removed columns" + kDash +
                            "only appending nullable columns is supported; indexes may be "
                            "created, replaced, or dropped independently",
                        table);
  }
  for (std::size_t i = 0; i < stored.columns.size(); ++i) {
    if (stored.columns[i].matches(configured[i])) continue;
    throw SchemaRefusal(RefusalReason::not_append_only,
                        prefix + "column " + std::to_string(i) + " changed (" +
                            stored.columns[i].json + " \u2192 " +
                            column_layout_json(configured[i]) + ")" + kDash +
                            "only appending nullable columns is supported",
                        table, configured[i].name);
  }
  for (std::size_t i = stored.columns.size(); i < configured.size(); ++i) {
    if (configured[i].nullable) continue;
    throw SchemaRefusal(RefusalReason::not_append_only,
                        prefix + "added column " + quoted_name(configured[i].name) +
                            " must be nullable" + kDash + "existing rows have no value to backfill",
                        table, configured[i].name);
  }
}

SchemaReport run_schema_startup(SchemaSession& session, const CompiledSchema& schema,
                                const StartupOptions& options) {
  create_core_tables(session);
  const std::optional<StoredMarker> marker = session.read_marker();
  SchemaReport report;
  report.configured_version = schema.version;
  if (marker) report.stored_version = marker->version;
  if (marker && marker->version > schema.version) {
    throw SchemaRefusal(RefusalReason::stored_newer,
                        stored_newer_message(marker->version, schema.version));
  }
  if (marker && marker->version == schema.version) {
    report.action = SchemaReport::Action::verified;
    if (options.same_version_checks) {
      verify_layouts(schema, *marker);
      verify_physical(session, schema);
    }
    return report;
  }
  report.action = SchemaReport::Action::migrated;
  migrate(session, schema, marker, options, report);
  return report;
}

}  // namespace ssp::storage
