#include "harness/candidate/backend.hpp"

namespace ssp::harness {

std::string_view backend_name(Backend backend) {
  switch (backend) {
    case Backend::memory: return "memory";
    case Backend::sqlite: return "sqlite";
    case Backend::postgres: return "postgres";
  }
  return "unknown";
}

void PrintTo(Backend backend, std::ostream* out) { *out << backend_name(backend); }

std::vector<Backend> all_backends() { return {Backend::memory, Backend::sqlite, Backend::postgres}; }

std::optional<Backend> backend_called(std::string_view name) {
  for (const Backend backend : all_backends()) {
    if (backend_name(backend) == name) return backend;
  }
  return std::nullopt;
}

}  // namespace ssp::harness
