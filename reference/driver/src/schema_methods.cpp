// schema.* (docs/driver-protocol.md, "schema"): the schema JSON form and
// compile_schema with its stored layouts (storage.md §1.1, §1.2).
#include "methods.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/schema_compile.hpp"
#include "wire/schema_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

Json schema_parse(const Fields& params) {
  return Json{{"schema", storage::schema_json_value(storage::parse_schema_json(params.text("text")))}};
}

Json schema_compile(const Fields& params) {
  const storage::CompiledSchema compiled =
      storage::compile_schema(storage::parse_schema_value(params.at("schema")));
  Json scopes = Json::object();
  for (const storage::CompiledTable& table : compiled.tables) {
    Json bindings = Json::array();
    for (const storage::ScopeBinding& binding : table.scopes) {
      bindings.push_back({{"variable", binding.variable}, {"column", binding.column}});
    }
    scopes[table.name()] = std::move(bindings);
  }
  return Json{{"schema", wire::compiled_schema_to_json(compiled)},
              {"scopes", std::move(scopes)},
              {"layoutsJson", storage::layouts_json(compiled)}};
}

}  // namespace

void add_schema_methods(MethodTable& table) {
  table["schema.parse"] = schema_parse;
  table["schema.compile"] = schema_compile;
}

}  // namespace ssp::driver
