// A candidate is an implementation under test. Tests talk to a Candidate,
// never to a backend class: the reference is one candidate, an out-of-process
// driver is another.
#pragma once

#include <memory>
#include <string>

#include "harness/backend.hpp"
#include "ssp/segment_store.hpp"
#include "ssp/segment_store_options.hpp"

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
};

// The candidate under test: the reference, unless another is selected.
Candidate& current_candidate();

}  // namespace ssp::harness
