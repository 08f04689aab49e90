// The check every push benchmark makes of an answer: the commit applied, with
// a commit seq above the stream's previous one and one applied record per
// operation. A benchmark that pushed nothing cannot pass it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ssp/push/push_types.hpp"

namespace ssp::bench {

// What is wrong with `answer` to `commit` ("<client> <commit id> answered
// rejected: <code> <message>", say), or nothing when it is applied as the
// benchmark requires.
std::optional<std::string> not_applied(const push::PushAnswer& answer,
                                       const push::PushCommit& commit,
                                       std::int64_t previous_seq);

}  // namespace ssp::bench
