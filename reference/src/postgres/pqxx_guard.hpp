// libpqxx failures as the reference's typed errors, for every PostgreSQL
// backend class.
#pragma once

#include <pqxx/pqxx>
#include <string>
#include <string_view>

#include "ssp/errors/errors.hpp"

namespace ssp::postgres {

// Runs `work` and returns its result. A libpqxx failure becomes StorageError
// with `what` (the object and the operation, e.g. "PostgresSegmentStore: put
// sha256:…") before the server's message; an SspError passes unchanged. The
// transaction objects inside `work` roll back on the way out.
template <typename Work>
auto guard_pqxx(std::string_view what, Work&& work) -> decltype(work()) {
  try {
    return work();
  } catch (const SspError&) {
    throw;
  } catch (const pqxx::failure& error) {
    throw StorageError(std::string(what) + ": " + error.what());
  } catch (const pqxx::usage_error& error) {
    throw StorageError(std::string(what) + ": " + error.what());
  }
}

}  // namespace ssp::postgres
