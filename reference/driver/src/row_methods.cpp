// rows.* (docs/driver-protocol.md, "rows"): the §2.4 positional row codec.
#include "methods.hpp"
#include "ssp/encoding/base64.hpp"
#include "ssp/storage/row_codec.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

std::vector<storage::ColumnLayout> columns_of(const Fields& params) {
  return wire::columns_from_json(params.at("columns"), params.path_of("columns"));
}

Json rows_encode(const Fields& params) {
  const storage::Row row = wire::row_from_json(params.at("values"), params.path_of("values"));
  return Json{{"payload", base64_encode(storage::encode_row(columns_of(params), row))}};
}

Json rows_decode(const Fields& params) {
  return Json{
      {"values", wire::row_to_json(storage::decode_row(columns_of(params), params.bytes("payload")))}};
}

}  // namespace

void add_row_methods(MethodTable& table) {
  table["rows.encode"] = rows_encode;
  table["rows.decode"] = rows_decode;
}

}  // namespace ssp::driver
