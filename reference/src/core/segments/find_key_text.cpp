#include "ssp/segments/find_key_text.hpp"

#include <string>

#include "ssp/encoding/json_input.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/segments/segment_validation.hpp"
#include "wire/segment_json.hpp"

namespace ssp {

SegmentFindKey find_key_from_text(std::string_view text) {
  SegmentFindKey key;
  try {
    key = wire::find_key_from_json(parse_json_input<wire::Json>(text), "");
  } catch (const JsonSyntaxError& error) {
    throw InvalidArgument(std::string("find key: not valid JSON: ") + error.what());
  } catch (const wire::WireError& error) {
    throw InvalidArgument(std::string("find key: ") + error.what());
  }
  validate_find_key(key);
  return key;
}

}  // namespace ssp
