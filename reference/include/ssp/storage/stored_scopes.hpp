// The _sync_scopes column (storage.md §4.2): the JSON text of a
// {variable: value} object, both strings.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace ssp::storage {

// Keys in UTF-16 code-unit order (the §0 canonical map order), compact.
// Precondition: keys and values are well-formed UTF-8.
std::string scopes_json(const std::map<std::string, std::string>& scopes);

// Reads a stored scopes value back (any key order or whitespace, as JSONB
// renders it). Throws StorageError naming `table` when it is not a JSON object
// of strings.
std::map<std::string, std::string> parse_scopes_json(std::string_view text,
                                                     const std::string& table);

}  // namespace ssp::storage
