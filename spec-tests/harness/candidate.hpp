// A candidate is an implementation under test. Tests talk to a Candidate,
// never to a backend class: the reference is one candidate, an out-of-process
// driver is another.
#pragma once

#include <memory>
#include <string>

#include "harness/backend.hpp"
#include "ssp/segment_store.hpp"
#include "ssp/segment_store_options.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::harness {

class Candidate {
 public:
  virtual ~Candidate() = default;

  virtual std::string name() const = 0;

  // Whether the candidate implements `backend`; tests on others are skipped.
  virtual bool supports(Backend backend) const = 0;

  // Whether stores opened twice over one location see each other's data
  // (false for memory: each open is a new, empty store).
  virtual bool persists(Backend backend) const = 0;

  // Opens a segment store over `location` with `options`. Every call returns
  // a new store on a new connection.
  virtual std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                           const SegmentStoreOptions& options) = 0;

  // Opens a server storage (schema marker, layouts, migration; SSP2 §2.4)
  // over `location` with `options`, on a new connection. Nothing is created
  // until ensure_schema. SQL backends only: memory throws InvalidArgument.
  virtual std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) = 0;
};

// The C++ reference implementation, linked in process (reference_candidate.cpp).
Candidate& reference_candidate();

// The candidate under test, chosen once by the environment variable
// SSP_CANDIDATE (candidate_selection.cpp):
//  - unset, empty or "reference": reference_candidate();
//  - "wrong:<name>": a deliberately wrong candidate (wrong_candidates.hpp),
//    the harness's own test data.
// Any other value prints the accepted forms to stderr and exits with status 2,
// before a test runs: every entry point calls it first (harness/main.cpp).
Candidate& current_candidate();

}  // namespace ssp::harness
