// Deliberately wrong candidates: test data for the harness itself, not
// implementations anyone should run. Each wraps another candidate (the
// reference) and breaks one thing, so the HARNESS tests can check that the
// suite reports a wrong implementation with failures and a section report
// instead of crashing (docs/requirements/harness.md, HARNESS-1 … HARNESS-9).
// Selected with SSP_CANDIDATE=wrong:<name>.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/candidate/candidate.hpp"

namespace ssp::harness {

// The names make_wrong_candidate accepts:
//  - finds-nothing: every lookup (segment get and find, storage get_row and
//    read_projection) answers "absent";
//  - wrong-bytes: segment get and storage get_row answer bytes that differ
//    from the stored ones (one byte flipped, or one added to an empty value);
//  - throws: every method of every store throws std::runtime_error;
//  - refuses-nothing: every refusal or error the reference throws on purpose
//    (ssp::SspError: collisions, schema refusals, invalid arguments) is
//    swallowed and a default answer returned instead;
//  - long-urls: signed-URL mint takes any TTL and states an expiry past
//    §5.4's 15 minutes (a SHOULD); the stores are the base's, unbroken;
//  - leaks-a-scope: pull's read (read_table_window) also answers one change
//    of the table that the requested scopes do not allow, where the log holds
//    one; everything else is the base's.
std::vector<std::string> wrong_candidate_names();

// The wrong candidate `name` over `base`, or nullptr for an unknown name.
// `base` must outlive the result.
std::unique_ptr<Candidate> make_wrong_candidate(std::string_view name, Candidate& base);

}  // namespace ssp::harness
