// The harness's own model of which changes a puller's scopes allow (SSP2
// §3.2, §4.5; upstream's readCommitWindow), written from the spec and not
// from the code under test, so that a window's answer is judged against a
// known answer: a change is allowed when every variable of the filter is
// among its stored scopes with one of the variable's values.
#pragma once

#include <map>
#include <string>

#include "ssp/scopes/scope_map.hpp"

namespace ssp::harness {

bool filter_allows(const ScopeMap& filter, const std::map<std::string, std::string>& stored);

}  // namespace ssp::harness
