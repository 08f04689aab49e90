// The areas that need no store (scope, rows, schema, error_catalog) over a
// driver's session process.
#include "harness/driver/driver_areas.hpp"
#include "harness/errors/driver_error.hpp"
#include "ssp/encoding/base64.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "wire/schema_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Fields;
using wire::Json;

// Sends `method` on `session` and decodes its result with `decode(Fields)`.
template <class Decode>
auto ask(DriverProcess& session, const std::string& method, Json params, Decode&& decode) {
  const Json result = session.call(method, std::move(params));
  return decode_answer(method, [&] { return decode(Fields(result, "result")); });
}

class DriverScopeArea final : public ScopeArea {
 public:
  explicit DriverScopeArea(DriverProcess& session) : session_(session) {}

  ScopeDigestAnswer digest(const ScopeMap& scopes) override {
    return ask(session_, "scope.digest", {{"scopes", wire::scope_map_to_json(scopes)}},
               [](const Fields& r) {
                 return ScopeDigestAnswer{r.text("canonicalJson"), r.text("scopeDigest")};
               });
  }

  ScopeMap parse(std::string_view text) override {
    return ask(session_, "scope.parse", {{"text", std::string(text)}}, [](const Fields& r) {
      return wire::scope_map_from_json(r.at("scopes"), r.path_of("scopes"));
    });
  }

  EffectiveScopes effective(const ScopeMap& requested, const ScopeMap& allowed) override {
    return ask(session_, "scope.effective",
               {{"requested", wire::scope_map_to_json(requested)},
                {"allowed", wire::scope_map_to_json(allowed)}},
               [](const Fields& r) {
                 EffectiveScopes effective;
                 effective.status = wire::scope_status_at(r, "status");
                 effective.scopes = wire::scope_map_from_json(r.at("scopes"), r.path_of("scopes"));
                 effective.revoked_because = r.text("revokedBecause");
                 return effective;
               });
  }

 private:
  DriverProcess& session_;
};

class DriverRowArea final : public RowArea {
 public:
  explicit DriverRowArea(DriverProcess& session) : session_(session) {}

  storage::Bytes encode(std::span<const storage::ColumnLayout> columns,
                        const storage::Row& row) override {
    return ask(session_, "rows.encode", {{"columns", columns_json(columns)},
                                         {"values", wire::row_to_json(row)}},
               [](const Fields& r) { return r.bytes("payload"); });
  }

  storage::Row decode(std::span<const storage::ColumnLayout> columns,
                      std::span<const std::uint8_t> payload) override {
    return ask(session_, "rows.decode", {{"columns", columns_json(columns)},
                                         {"payload", base64_encode(payload)}},
               [](const Fields& r) { return wire::row_from_json(r.at("values"), r.path_of("values")); });
  }

 private:
  static Json columns_json(std::span<const storage::ColumnLayout> columns) {
    return wire::columns_to_json({columns.begin(), columns.end()});
  }

  DriverProcess& session_;
};

// A schema in a driver's answer, read with the schema JSON rules; what they
// refuse is a malformed answer, not a refusal of the test's input.
storage::ServerSchema schema_in_answer(const Fields& result, std::string_view field) {
  try {
    return storage::parse_schema_value(result.at(field));
  } catch (const storage::SchemaError& error) {
    throw wire::WireError(result.path_of(field) + ": not a schema: " + error.what());
  }
}

class DriverSchemaArea final : public SchemaArea {
 public:
  explicit DriverSchemaArea(DriverProcess& session) : session_(session) {}

  storage::ServerSchema parse(std::string_view text) override {
    return ask(session_, "schema.parse", {{"text", std::string(text)}},
               [](const Fields& r) { return schema_in_answer(r, "schema"); });
  }

  // The answer's schema says how materialize was resolved; the declared
  // tables are the ones sent, so a test compares them with what it declared.
  CompiledSchemaAnswer compile(const storage::ServerSchema& schema) override {
    return ask(session_, "schema.compile", {{"schema", storage::schema_json_value(schema)}},
               [&](const Fields& r) {
                 const storage::ServerSchema resolved = schema_in_answer(r, "schema");
                 if (resolved.tables.size() != schema.tables.size()) {
                   throw wire::WireError(r.path_of("schema") + ": " +
                                         std::to_string(resolved.tables.size()) +
                                         " tables, but the request declared " +
                                         std::to_string(schema.tables.size()));
                 }
                 CompiledSchemaAnswer answer;
                 answer.schema.version = resolved.version;
                 const Fields scopes = r.object("scopes");
                 for (std::size_t i = 0; i < schema.tables.size(); ++i) {
                   answer.schema.tables.push_back(
                       compiled_table(schema.tables[i], resolved.tables[i], scopes));
                 }
                 answer.layouts_json = r.text("layoutsJson");
                 return answer;
               });
  }

 private:
  static storage::CompiledTable compiled_table(const storage::TableSchema& declared,
                                               const storage::TableSchema& resolved,
                                               const Fields& scopes) {
    if (resolved.name != declared.name) {
      throw wire::WireError("result.schema: table \"" + resolved.name + "\" where the request "
                            "declared \"" + declared.name + "\"");
    }
    if (!resolved.materialize) {
      throw wire::WireError("result.schema: table \"" + declared.name +
                            "\" without its resolved materialize");
    }
    storage::CompiledTable table{declared, *resolved.materialize, {}};
    const Json& bindings = scopes.array(declared.name);
    for (std::size_t i = 0; i < bindings.size(); ++i) {
      const Fields binding(bindings[i], scopes.path_of(declared.name) + "[" + std::to_string(i) + "]");
      table.scopes.push_back({binding.text("variable"), binding.text("column")});
    }
    return table;
  }

  DriverProcess& session_;
};

class DriverErrorCatalogArea final : public ErrorCatalogArea {
 public:
  explicit DriverErrorCatalogArea(DriverProcess& session) : session_(session) {}

  std::vector<ErrorCatalogRow> list() override {
    return ask(session_, "error_catalog.list", Json::object(), [](const Fields& r) {
      std::vector<ErrorCatalogRow> rows;
      const Json& entries = r.array("entries");
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const Fields entry(entries[i], r.path_of("entries") + "[" + std::to_string(i) + "]");
        rows.push_back({entry.text("code"), entry.text("category"), entry.boolean("retryable"),
                        entry.text("recommendedAction"),
                        static_cast<int>(entry.integer("httpStatus"))});
      }
      return rows;
    });
  }

 private:
  DriverProcess& session_;
};

}  // namespace

std::unique_ptr<ScopeArea> make_driver_scope_area(DriverProcess& session) {
  return std::make_unique<DriverScopeArea>(session);
}
std::unique_ptr<RowArea> make_driver_row_area(DriverProcess& session) {
  return std::make_unique<DriverRowArea>(session);
}
std::unique_ptr<SchemaArea> make_driver_schema_area(DriverProcess& session) {
  return std::make_unique<DriverSchemaArea>(session);
}
std::unique_ptr<ErrorCatalogArea> make_driver_error_catalog_area(DriverProcess& session) {
  return std::make_unique<DriverErrorCatalogArea>(session);
}

}  // namespace ssp::harness
