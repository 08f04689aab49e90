#include "harness/models/scope_filter_model.hpp"

#include <algorithm>

namespace ssp::harness {

bool filter_allows(const ScopeMap& filter, const std::map<std::string, std::string>& stored) {
  return std::all_of(filter.begin(), filter.end(), [&](const auto& variable_values) {
    const auto& [variable, values] = variable_values;
    const auto found = stored.find(variable);
    return found != stored.end() &&
           std::find(values.begin(), values.end(), found->second) != values.end();
  });
}

}  // namespace ssp::harness
