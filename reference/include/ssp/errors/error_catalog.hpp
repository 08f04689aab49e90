// The SSP2 protocol error catalog (§10.1 shape, §10.2 codes): one table, used
// by every path that answers with a protocol error. Clients may hard-code a
// code's category, retryability and recommended action, so they live here
// once and nowhere else.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "ssp/errors/protocol_error.hpp"

namespace ssp {

// Every §10.2 code, in the order of the SPEC table. The catalog is closed.
std::span<const ErrorCatalogEntry> error_catalog();

// The entry for `code`. Throws InvalidArgument naming the code when it is not
// in the catalog: a producer never invents codes.
const ErrorCatalogEntry& error_entry(std::string_view code);

// A ProtocolError for `code` (must be in the catalog, see error_entry).
ProtocolError protocol_error(std::string_view code, std::string message);

// The §10.1 JSON body: {"code","category","retryable","recommendedAction","message"},
// as a value (for a caller that puts it inside another) and as compact text.
nlohmann::ordered_json error_body(const ProtocolError& error);
std::string error_body_json(const ProtocolError& error);

}  // namespace ssp
