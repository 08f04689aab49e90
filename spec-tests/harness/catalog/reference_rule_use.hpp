// Conformance tests and properties judge a candidate against expected values
// from outside the code under test: literals, known-answer vectors made by
// independent tools (fixtures/known-answers/), the candidate's own answers,
// or small models written in test code. They never ask the reference's rule
// functions: a wrong rule would then agree with itself (TRACE-8).
//
// The check is a scan of the sources, because the link cannot tell: every
// test executable links the reference (the reference candidate is part of
// the harness), and the reference's public headers mix data types with rule
// functions (ssp/storage/row_codec.hpp declares Row and encode_row), so no
// header can be banned whole. The scan has two parts:
//  - the reference headers a scanned file includes directly must be data or
//    contract headers (kDataHeaders);
//  - no scanned file calls or names a free function the reference's public
//    headers declare, except names of enumerators and plain data accessors
//    (kDataFunctions), however the header was reached (a harness header
//    includes ssp/storage/server_storage.hpp, which reaches layouts.hpp).
// What it cannot see: a rule reached through a member function of a data
// type, a function pointer taken without a call, a declaration split so its
// name is not on its first line.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ssp::harness {

// A reference function name → the header that declares it ("ssp/…").
using ReferenceRules = std::map<std::string, std::string>;

// The free functions declared at namespace scope (unindented lines) by the
// headers under `include_root` (reference/include), minus kDataFunctions.
ReferenceRules reference_rules(const std::string& include_root);

// The files of conformance tests and properties under the repository `root`:
// the *.cpp of conformance_test_folders(), the *.cpp and *.hpp of
// property_test_folders() (source_folders.hpp), and the harness's test
// side (spec-tests/harness/**). Not the candidate side of the harness, which
// is or serves a candidate and so rightly calls the reference
// (reference_candidate.cpp, reference_areas.*, wrong_candidates.*, driver_*,
// candidate_selection.cpp). Paths relative to `root`, sorted.
std::vector<std::string> conformance_sources(const std::string& root);

// A use the project knows of and accepts for now: `file` (relative to the
// repository) may use `what` (a function name or an "ssp/…" header), for
// `reason`.
struct AcceptedUse {
  std::string file;
  std::string what;
  std::string reason;
};
// The accepted uses of this repository (reference_rule_use.cpp).
const std::vector<AcceptedUse>& accepted_reference_uses();

// What in `text` (the contents of `file`) reaches the reference's rules: a
// direct #include of an "ssp/…" header outside kDataHeaders; a call of a
// function in `rules`, unqualified or qualified with ssp, storage or push
// (a member call `.f(` / `->f(` or another namespace's `x::f(` is not one).
// Comments and string literals are ignored. A test helper that shares a
// rule's name is reported too: rename it, so a reader never wonders which
// one runs. One message per finding, "file:line: …", skipping `accepted`
// entries for `file`.
std::vector<std::string> reference_rule_uses(const std::string& file, const std::string& text,
                                             const ReferenceRules& rules,
                                             const std::vector<AcceptedUse>& accepted = {});

// The accepted entries that no longer match anything in `root`, one message
// each, so an entry never outlives its fix.
std::vector<std::string> stale_accepted_uses(const std::string& root, const ReferenceRules& rules,
                                             const std::vector<AcceptedUse>& accepted);

}  // namespace ssp::harness
