// Pull's read on the wire (docs/driver-protocol.md, version 3,
// "storage.read_table_window"): the query as a request's fields and the
// window as its answer. Decoders check shapes only and name the field path
// in every WireError.
#pragma once

#include <string>
#include <vector>

#include "ssp/storage/table_window.hpp"
#include "wire/wire_json.hpp"

namespace ssp::wire {

// The fields "table", "scopeFilter", "afterSeq", "throughSeq",
// "limitChanges" (inside a request's params).
Json table_window_query_to_json(const storage::TableWindowQuery& query);
storage::TableWindowQuery table_window_query_from_fields(const Fields& f);

// {"commitSeq", "createdAtMs", "actorId", "changes": [change…]}.
Json window_commit_to_json(const storage::WindowCommit& commit);
storage::WindowCommit window_commit_from_json(const Json& value, const std::string& path);

// The answer: {"commits": [window commit…]}.
Json table_window_to_json(const std::vector<storage::WindowCommit>& commits);
std::vector<storage::WindowCommit> table_window_from_json(const Json& value,
                                                          const std::string& path);

}  // namespace ssp::wire
