#include "storage_generators.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "harness/candidate/candidate.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "ssp/values/safe_integer.hpp"
#include "wire/schema_json.hpp"

namespace ssp::properties {
namespace {

using storage::Column;
using storage::ColumnType;
using storage::Index;
using storage::ServerSchema;
using storage::TableSchema;

const std::vector<std::string> kTableNames = {"t_alpha",
                                              "t_beta",
                                              "items",
                                              "orders",
                                              "2024",
                                              "__proto__",
                                              "constructor",
                                              "quo\"te",
                                              "t\xc3\xa2"
                                              "che",
                                              "x y"};
const std::vector<std::string> kColumnNames = {"title", "done", "count", "ratio", "meta",
                                               "blob",  "doc",  "att",   "c\"q",  "\xc3\xbcn",
                                               "k 2",   "2",    "col_a", "col_b"};
const std::vector<std::string> kIndexNames = {
    "ix_a", "ix_b", "ix_c", "index_with_a_rather_long_declared_name_that_cannot_fit_in_pg"};
const std::vector<ColumnType> kTypes = {
    ColumnType::string, ColumnType::integer, ColumnType::floating, ColumnType::boolean,
    ColumnType::json,   ColumnType::bytes,   ColumnType::blob_ref, ColumnType::crdt};
const std::string kBlobId = "sha256:" + std::string(64, 'c');

// A random subset of `pool` of `count` elements, in random order.
std::vector<std::string> pick(const std::vector<std::string>& pool, std::size_t count) {
  std::vector<std::string> shuffled = pool;
  for (std::size_t i = 0; i < count && i < shuffled.size(); ++i) {
    std::swap(shuffled[i], shuffled[*rc::gen::inRange(i, shuffled.size())]);
  }
  shuffled.resize(std::min(count, shuffled.size()));
  return shuffled;
}

std::string unused(const std::vector<std::string>& pool, const std::vector<std::string>& used,
                   const std::string& fallback) {
  for (const std::string& name : pool) {
    if (std::find(used.begin(), used.end(), name) == used.end()) return name;
  }
  return fallback;
}

Column column_of(const std::string& name, ColumnType type, bool nullable) {
  Column column{name, type, nullable, {}, false, {}};
  if (type == ColumnType::crdt) column.crdt_type = "yjs";
  if (type == ColumnType::bytes && *rc::gen::inRange(0, 4) == 0) {
    column.encrypted = true;
    column.declared_type = "string";
  }
  return column;
}

Column gen_column(const std::string& name) {
  return column_of(name, *rc::gen::elementOf(kTypes), *rc::gen::arbitrary<bool>());
}

std::vector<Index> gen_indexes(const TableSchema& table) {
  std::vector<Index> indexes;
  std::vector<std::string> columns;
  for (const Column& column : table.columns) columns.push_back(column.name);
  for (const std::string& name : pick(kIndexNames, *rc::gen::inRange<std::size_t>(0, 3))) {
    indexes.push_back({name, pick(columns, *rc::gen::inRange<std::size_t>(1, 3)), false});
  }
  return indexes;
}

TableSchema gen_table(const std::string& name) {
  TableSchema table;
  table.name = name;
  table.columns.push_back({"id", ColumnType::string, false, {}, false, {}});
  for (const std::string& column : pick(kColumnNames, *rc::gen::inRange<std::size_t>(0, 8))) {
    table.columns.push_back(gen_column(column));
  }
  table.primary_key = "id";
  table.scopes = {{"k:{id}", std::nullopt}};
  table.indexes = gen_indexes(table);
  table.materialize =
      *rc::gen::elementOf(std::vector<std::optional<bool>>{std::nullopt, true, false});
  return table;
}

std::vector<std::string> table_names(const ServerSchema& schema) {
  std::vector<std::string> names;
  for (const TableSchema& table : schema.tables) names.push_back(table.name);
  return names;
}

std::vector<std::string> column_names(const TableSchema& table) {
  std::vector<std::string> names;
  for (const Column& column : table.columns) names.push_back(column.name);
  return names;
}

// Keeps indexes valid after `table` lost a column.
void drop_dangling_indexes(TableSchema& table) {
  const auto names = column_names(table);
  std::erase_if(table.indexes, [&](const Index& index) {
    return std::any_of(index.columns.begin(), index.columns.end(), [&](const std::string& column) {
      return std::find(names.begin(), names.end(), column) == names.end();
    });
  });
}

// The materialize flag `table` resolves to (its explicit value, else the
// storage.md §1.1 default).
bool resolved_materialize(const TableSchema& table) {
  return harness::compiled(ServerSchema{1, {table}}).tables[0].materialized;
}

ColumnType other_type(ColumnType type) {
  std::vector<ColumnType> others;
  for (ColumnType candidate : kTypes) {
    if (candidate != type) others.push_back(candidate);
  }
  return *rc::gen::elementOf(others);
}

// Replaces column `i` of `table` by one of another type, same name and nullability.
void retype(TableSchema& table, std::size_t i) {
  const Column& old = table.columns[i];
  table.columns[i] = column_of(old.name, other_type(old.type), old.nullable);
}

storage::RowValue gen_value(const Column& column) {
  if (column.nullable && *rc::gen::inRange(0, 4) == 0) return std::monostate{};
  switch (column.type) {
    case ColumnType::string:
      return *rc::gen::elementOf(std::vector<std::string>{"", "a", "h\xc3\xa9llo", "quo'te",
                                                          "line\nbreak", "\xe2\x9c\x93"});
    case ColumnType::integer:
      return *rc::gen::oneOf(
          rc::gen::inRange<std::int64_t>(-kMaxSafeInteger, kMaxSafeInteger),
          rc::gen::elementOf(
              std::vector<std::int64_t>{kMaxSafeInteger, -kMaxSafeInteger, 0}));
    case ColumnType::floating:
      return *rc::gen::elementOf(
          std::vector<double>{0.5, -1.25, 1e300, 3.141592653589793, 1e-300, 12345.678});
    case ColumnType::boolean:
      return *rc::gen::arbitrary<bool>();
    case ColumnType::json:
      return *rc::gen::elementOf(std::vector<std::string>{"null", "1", "[1,2]", "{\"a\":\"b\"}",
                                                          "\"s\"", "{\"n\":{\"m\":[true,false]}}"});
    case ColumnType::blob_ref:
      return *rc::gen::elementOf(std::vector<std::string>{
          R"({"blobId":")" + kBlobId + R"(","byteLength":3})",
          R"({"blobId":")" + kBlobId +
              R"(","byteLength":0,"mediaType":"text/plain","name":"a b"})"});
    case ColumnType::bytes:
    case ColumnType::crdt:
      return *rc::gen::container<storage::Bytes>(*rc::gen::inRange<std::size_t>(0, 8),
                                                 rc::gen::arbitrary<std::uint8_t>());
  }
  return std::monostate{};
}

}  // namespace

rc::Gen<ServerSchema> gen_schema() {
  return rc::gen::exec([] {
    ServerSchema schema;
    schema.version = *rc::gen::inRange<std::int64_t>(1, 1000);
    for (const std::string& name : pick(kTableNames, *rc::gen::inRange<std::size_t>(1, 6))) {
      schema.tables.push_back(gen_table(name));
    }
    return schema;
  });
}

rc::Gen<std::pair<ServerSchema, std::string>> gen_layout_mutation(const ServerSchema& original) {
  return rc::gen::exec([original] {
    ServerSchema schema = original;
    const std::size_t t = *rc::gen::inRange<std::size_t>(0, schema.tables.size());
    TableSchema& table = schema.tables[t];
    const std::size_t columns = table.columns.size();
    std::vector<std::string> kinds = {"append", "add table", "remove table"};
    if (columns >= 2) kinds.insert(kinds.end(), {"rename", "retype", "nullable", "drop"});
    if (columns >= 3) kinds.push_back("swap");
    const std::string kind = *rc::gen::elementOf(kinds);
    // Column 0 is the key and scope column: changes go to the others.
    const auto some_column = [&] { return *rc::gen::inRange<std::size_t>(1, columns); };
    if (kind == "append") {
      table.columns.push_back(gen_column(unused(kColumnNames, column_names(table), "appended")));
    } else if (kind == "add table") {
      schema.tables.push_back(gen_table(unused(kTableNames, table_names(schema), "added")));
    } else if (kind == "remove table") {
      schema.tables.erase(schema.tables.begin() + static_cast<std::ptrdiff_t>(t));
    } else if (kind == "rename") {
      const std::size_t i = some_column();
      const std::string old = table.columns[i].name;
      table.columns[i].name = unused(kColumnNames, column_names(table), "renamed");
      for (Index& index : table.indexes)
        std::replace(index.columns.begin(), index.columns.end(), old, table.columns[i].name);
    } else if (kind == "retype") {
      retype(table, some_column());
    } else if (kind == "nullable") {
      const std::size_t i = some_column();
      table.columns[i].nullable = !table.columns[i].nullable;
    } else if (kind == "drop") {
      table.columns.erase(table.columns.begin() + static_cast<std::ptrdiff_t>(some_column()));
      drop_dangling_indexes(table);
    } else {
      const std::size_t i = some_column();
      std::size_t j = some_column();
      if (j == i) j = i + 1 < columns ? i + 1 : 1;
      std::swap(table.columns[i], table.columns[j]);
    }
    return std::make_pair(schema, kind);
  });
}

rc::Gen<std::pair<ServerSchema, std::string>> gen_non_layout_mutation(
    const ServerSchema& original) {
  return rc::gen::exec([original] {
    ServerSchema schema = original;
    const std::size_t t = *rc::gen::inRange<std::size_t>(0, schema.tables.size());
    TableSchema& table = schema.tables[t];
    std::vector<std::string> kinds = {"indexes", "scopes", "materialize off", "primary key"};
    if (schema.tables.size() >= 2) kinds.push_back("table order");
    const bool has_crdt = std::any_of(table.columns.begin(), table.columns.end(),
                                      [](const Column& c) { return c.type == ColumnType::crdt; });
    if (has_crdt) kinds.push_back("crdtType");
    const std::string kind = *rc::gen::elementOf(kinds);
    // The materialize default depends on which columns are the key and the
    // scopes: a key or scope change could turn an unset flag from off to on,
    // which is a layout change (refused, Q3), not an N mutation. Pin it.
    if (kind == "scopes" || kind == "primary key") table.materialize = resolved_materialize(table);
    if (kind == "indexes") {
      table.indexes = gen_indexes(table);
    } else if (kind == "scopes") {
      table.scopes = {{"other:{id}", std::nullopt}, {"again:{key}", "id"}};
    } else if (kind == "materialize off") {
      table.materialize = false;
    } else if (kind == "primary key") {
      table.primary_key =
          table.columns[*rc::gen::inRange<std::size_t>(0, table.columns.size())].name;
    } else if (kind == "table order") {
      std::reverse(schema.tables.begin(), schema.tables.end());
    } else {
      for (Column& column : table.columns) {
        if (column.type == ColumnType::crdt) column.crdt_type = "automerge";
      }
    }
    return std::make_pair(schema, kind);
  });
}

rc::Gen<std::pair<ServerSchema, std::string>> gen_append_only_evolution(
    const ServerSchema& original) {
  return rc::gen::exec([original] {
    ServerSchema schema = original;
    schema.version += 1;
    std::string description;
    // An added table never reuses a name the stored layouts know: that would
    // be a different table under an old name, not an append.
    std::vector<std::string> known = table_names(original);
    for (int step = *rc::gen::inRange(1, 4); step > 0; --step) {
      std::vector<std::string> kinds = {"append nullable", "add table", "indexes", "materialize"};
      if (schema.tables.size() >= 2) kinds.push_back("drop table");
      const std::string kind = *rc::gen::elementOf(kinds);
      description += (description.empty() ? "" : ", ") + kind;
      if (schema.tables.empty() || kind == "add table") {
        for (const auto& name : table_names(schema)) known.push_back(name);
        schema.tables.push_back(
            gen_table(unused(kTableNames, known, "added_" + std::to_string(step))));
        continue;
      }
      const std::size_t t = *rc::gen::inRange<std::size_t>(0, schema.tables.size());
      TableSchema& table = schema.tables[t];
      if (kind == "append nullable") {
        Column column = gen_column(unused(kColumnNames, column_names(table), "appended"));
        column.nullable = true;
        table.columns.push_back(column);
      } else if (kind == "indexes") {
        table.indexes = gen_indexes(table);
      } else if (kind == "materialize") {
        table.materialize = !resolved_materialize(table);
      } else {
        schema.tables.erase(schema.tables.begin() + static_cast<std::ptrdiff_t>(t));
      }
    }
    return std::make_pair(schema, description);
  });
}

rc::Gen<std::pair<ServerSchema, std::string>> gen_breaking_evolution(const ServerSchema& original) {
  return rc::gen::exec([original] {
    ServerSchema schema = original;
    schema.version += 1;
    TableSchema& table = schema.tables[*rc::gen::inRange<std::size_t>(0, schema.tables.size())];
    std::vector<std::string> kinds = {"non-nullable append"};
    if (table.columns.size() >= 2)
      kinds.insert(kinds.end(), {"remove", "rename", "retype", "nullable"});
    const std::string kind = *rc::gen::elementOf(kinds);
    const std::size_t i =
        table.columns.size() >= 2 ? *rc::gen::inRange<std::size_t>(1, table.columns.size()) : 0;
    if (kind == "non-nullable append") {
      Column column = gen_column(unused(kColumnNames, column_names(table), "appended"));
      column.nullable = false;
      table.columns.push_back(column);
    } else if (kind == "remove") {
      table.columns.erase(table.columns.begin() + static_cast<std::ptrdiff_t>(i));
      drop_dangling_indexes(table);
    } else if (kind == "rename") {
      const std::string old = table.columns[i].name;
      table.columns[i].name = unused(kColumnNames, column_names(table), "renamed");
      for (Index& index : table.indexes)
        std::replace(index.columns.begin(), index.columns.end(), old, table.columns[i].name);
    } else if (kind == "retype") {
      retype(table, i);
    } else {
      table.columns[i].nullable = !table.columns[i].nullable;
    }
    return std::make_pair(schema, kind + " in " + table.name);
  });
}

rc::Gen<std::vector<GeneratedRow>> gen_rows(const storage::CompiledSchema& schema) {
  return rc::gen::exec([schema] {
    std::vector<GeneratedRow> rows;
    for (const storage::CompiledTable& table : schema.tables) {
      const int count = *rc::gen::inRange(0, 5);
      for (int n = 0; n < count; ++n) {
        GeneratedRow row;
        row.partition = *rc::gen::elementOf(std::vector<std::string>{"p1", "p2", "p3"});
        row.table = table.name();
        row.row.row_id = "r" + std::to_string(n);
        row.row.server_version = *rc::gen::inRange<std::int64_t>(1, 100);
        row.values.push_back(row.row.row_id);
        for (std::size_t i = 1; i < table.columns().size(); ++i) {
          row.values.push_back(gen_value(table.columns()[i]));
        }
        row.row.scopes = {{"id", row.row.row_id}};
        row.row.payload = harness::current_candidate().rows().encode(table.layout(), row.values);
        rows.push_back(std::move(row));
      }
    }
    return rows;
  });
}

std::optional<std::pair<std::string, std::optional<std::string>>> expected_mismatch(
    const ServerSchema& configured, const ServerSchema& stored) {
  const auto find = [](const ServerSchema& schema, const std::string& name) -> const TableSchema* {
    for (const TableSchema& table : schema.tables) {
      if (table.name == name) return &table;
    }
    return nullptr;
  };
  for (const TableSchema& table : configured.tables) {
    const TableSchema* other = find(stored, table.name);
    const std::vector<Column> none;
    const std::vector<Column>& theirs = other ? other->columns : none;
    for (std::size_t i = 0; i < std::max(table.columns.size(), theirs.size()); ++i) {
      if (i < table.columns.size() && i < theirs.size() &&
          table.columns[i].layout() == theirs[i].layout()) {
        continue;
      }
      return std::make_pair(table.name,
                            i < table.columns.size() ? table.columns[i].name : theirs[i].name);
    }
  }
  for (const TableSchema& table : stored.tables) {
    if (!find(configured, table.name))
      return std::make_pair(table.name, std::optional<std::string>());
  }
  return std::nullopt;
}

bool same_value(const storage::RowValue& a, const storage::RowValue& b, ColumnType type) {
  if (type == ColumnType::json && std::holds_alternative<std::string>(a) &&
      std::holds_alternative<std::string>(b)) {
    return nlohmann::json::parse(std::get<std::string>(a)) ==
           nlohmann::json::parse(std::get<std::string>(b));
  }
  return a == b;
}

}  // namespace ssp::properties

namespace ssp::storage {

void showValue(const ServerSchema& schema, std::ostream& out) { out << schema_to_json(schema); }

void showValue(const TableSchema& table, std::ostream& out) {
  out << schema_to_json(ServerSchema{0, {table}});
}

}  // namespace ssp::storage

namespace ssp::properties {

void showValue(const GeneratedRow& row, std::ostream& out) {
  out << row.partition << "/" << row.table << "/" << row.row.row_id << " v"
      << row.row.server_version << " (" << row.row.payload.size() << " payload bytes)";
}

}  // namespace ssp::properties
