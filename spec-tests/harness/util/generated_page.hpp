// A page of docs/ that a run writes from what it saw (docs/races.md,
// docs/faults.md): an environment variable set to check:PATH makes the run
// fail when PATH differs from the page, write:PATH writes it.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace ssp::harness {

// What `variable` asks, done with the page `render` makes (render may throw
// std::runtime_error saying why there is no page): nothing when the
// variable is unset or empty, or when the page was written or matched;
// otherwise the problem in words, naming `regenerate_with` when the page
// differs.
std::optional<std::string> settle_generated_page(const char* variable,
                                                 const std::function<std::string()>& render,
                                                 const std::string& regenerate_with);

}  // namespace ssp::harness
