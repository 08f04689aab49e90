// The test database every test gets (create_test_database): the backend's
// database, with each failure of the harness's own SQL read by
// raise_inspection_failure, so a missing table of the candidate's is said in
// words and a harness bug is a harness error.
#pragma once

#include <memory>

#include "harness/backends/test_database.hpp"

namespace ssp::harness {

std::unique_ptr<TestDatabase> inspected(std::unique_ptr<TestDatabase> database);

}  // namespace ssp::harness
