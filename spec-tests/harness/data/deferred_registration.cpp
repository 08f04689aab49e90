#include "harness/data/deferred_registration.hpp"

#include <vector>

namespace ssp::harness {
namespace {

// Function-local, so that registrations deferred from other files' static
// initializers find it constructed whatever the order.
std::vector<std::function<void()>>& deferred() {
  static std::vector<std::function<void()>> registrations;
  return registrations;
}

}  // namespace

bool defer_registration(std::function<void()> registration) {
  deferred().push_back(std::move(registration));
  return true;
}

void run_deferred_registrations() {
  std::vector<std::function<void()>> registrations;
  registrations.swap(deferred());
  for (const auto& registration : registrations) registration();
}

}  // namespace ssp::harness
