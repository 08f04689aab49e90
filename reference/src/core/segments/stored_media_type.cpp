#include "ssp/segments/stored_media_type.hpp"

namespace ssp {

MediaType media_type_from_stored(std::string_view stored) {
  return stored == "sqlite" ? MediaType::sqlite : MediaType::rows;
}

}  // namespace ssp
