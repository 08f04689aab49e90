#include <algorithm>
#include <nlohmann/json.hpp>

#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_text.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {
namespace {

using Json = nlohmann::ordered_json;  // keeps stored key order, as JSON.parse does

std::string json_quoted(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

// JSON.stringify of a parsed value: compact, keys in stored order.
void stringify(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, member] : value.items()) {
        if (!first) out.push_back(',');
        first = false;
        append_json_string(out, key);
        out.push_back(':');
        stringify(out, member);
      }
      out.push_back('}');
      return;
    }
    case Json::value_t::array: {
      out.push_back('[');
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (i) out.push_back(',');
        stringify(out, value[i]);
      }
      out.push_back(']');
      return;
    }
    case Json::value_t::string:
      append_json_string(out, value.get_ref<const std::string&>());
      return;
    default:
      out += value.dump();
      return;  // numbers, booleans, null
  }
}

StoredColumn stored_column(const Json& element) {
  StoredColumn column;
  stringify(column.json, element);
  if (!element.is_object()) return column;
  if (const auto name = element.find("name"); name != element.end() && name->is_string()) {
    column.name = name->get<std::string>();
  }
  if (const auto type = element.find("type"); type != element.end() && type->is_string()) {
    column.type = type->get<std::string>();
  }
  if (const auto nullable = element.find("nullable");
      nullable != element.end() && nullable->is_boolean()) {
    column.nullable = nullable->get<bool>();
  }
  return column;
}

[[noreturn]] void unreadable(const std::string& why) {
  throw SchemaRefusal(RefusalReason::layouts_unreadable,
                      "stored schema layouts " + why +
                          " \u2014 refusing to serve a database whose stored rows cannot be "
                          "described");
}

}  // namespace

SchemaLayouts layouts_of(const CompiledSchema& schema) {
  SchemaLayouts layouts;
  for (const CompiledTable& table : schema.tables)
    layouts.push_back({table.name(), table.layout()});
  return layouts;
}

std::string column_layout_json(const ColumnLayout& column) {
  std::string out = "{\"name\":";
  append_json_string(out, column.name);
  out += ",\"type\":";
  append_json_string(out, column_type_name(column.type));
  out += ",\"nullable\":";
  out += column.nullable ? "true" : "false";
  out.push_back('}');
  return out;
}

std::string layouts_json(const SchemaLayouts& layouts) {
  std::string out = "{";
  for (std::size_t t = 0; t < layouts.size(); ++t) {
    if (t) out.push_back(',');
    append_json_string(out, layouts[t].table);
    out += ":[";
    const auto& columns = layouts[t].columns;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) out.push_back(',');
      out += column_layout_json(columns[c]);
    }
    out.push_back(']');
  }
  out.push_back('}');
  return out;
}

bool StoredColumn::matches(const ColumnLayout& column) const {
  return name == column.name && type == column_type_name(column.type) &&
         nullable == column.nullable;
}

std::optional<ColumnLayout> StoredColumn::as_layout() const {
  if (!name || !type || !nullable) return std::nullopt;
  const auto parsed = column_type_from_name(*type);
  if (!parsed) return std::nullopt;
  return ColumnLayout{*name, *parsed, *nullable};
}

const StoredTable* StoredLayouts::find(std::string_view table) const {
  for (const StoredTable& stored : tables) {
    if (stored.table == table) return &stored;
  }
  return nullptr;
}

StoredLayouts parse_layouts(const std::optional<std::string>& text) {
  StoredLayouts layouts;
  if (!text || text->empty()) return layouts;
  Json parsed;
  try {
    parsed = parse_json_input<Json>(*text);
  } catch (const JsonSyntaxError& error) {
    unreadable("are not valid JSON (" + std::string(error.what()) + ")");
  }
  if (!parsed.is_object()) unreadable("are not a JSON object");
  for (const auto& [table, value] : parsed.items()) {
    StoredTable stored;
    stored.table = table;
    stored.is_array = value.is_array();
    if (stored.is_array) {
      for (const Json& element : value) stored.columns.push_back(stored_column(element));
    }
    layouts.tables.push_back(std::move(stored));
  }
  return layouts;
}

std::string LayoutMismatch::describe() const {
  std::string out = "table " + json_quoted(table);
  if (column) out += " column " + json_quoted(*column);
  return out;
}

std::optional<LayoutMismatch> compare_layouts(const SchemaLayouts& configured,
                                              const StoredLayouts& stored) {
  for (const TableLayout& table : configured) {
    const StoredTable* found = stored.find(table.table);
    const std::size_t stored_count = found ? found->columns.size() : 0;
    const std::size_t count = std::max(table.columns.size(), stored_count);
    for (std::size_t i = 0; i < count; ++i) {
      const bool both = i < table.columns.size() && i < stored_count;
      if (both && found->columns[i].matches(table.columns[i])) continue;
      std::string name;
      if (i < table.columns.size())
        name = table.columns[i].name;
      else if (found->columns[i].name)
        name = *found->columns[i].name;
      return LayoutMismatch{table.table, name};
    }
    if (found && !found->is_array) return LayoutMismatch{table.table, std::string()};
  }
  for (const StoredTable& table : stored.tables) {
    const bool configured_table =
        std::any_of(configured.begin(), configured.end(),
                    [&](const TableLayout& layout) { return layout.table == table.table; });
    if (!configured_table) return LayoutMismatch{table.table, std::nullopt};
  }
  return std::nullopt;
}

bool layouts_equal(const std::optional<std::string>& a, const std::optional<std::string>& b) {
  const StoredLayouts left = parse_layouts(a);
  const StoredLayouts right = parse_layouts(b);
  const auto same_column = [](const StoredColumn& x, const StoredColumn& y) {
    return x.name == y.name && x.type == y.type && x.nullable == y.nullable;
  };
  const auto contained = [&](const StoredLayouts& from, const StoredLayouts& in) {
    return std::all_of(from.tables.begin(), from.tables.end(), [&](const StoredTable& table) {
      const StoredTable* other = in.find(table.table);
      return other && other->is_array == table.is_array &&
             std::equal(table.columns.begin(), table.columns.end(), other->columns.begin(),
                        other->columns.end(), same_column);
    });
  };
  return contained(left, right) && contained(right, left);
}

}  // namespace ssp::storage
