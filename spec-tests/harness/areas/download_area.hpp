// The candidate's direct segment download decision (SSP2 §5.5;
// docs/download.md).
#pragma once

#include "ssp/download/segment_download.hpp"
#include "ssp/scopes/scope_resolution.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp::harness {

class DownloadArea {
 public:
  virtual ~DownloadArea() = default;

  // Decides one GET <mount>/segments/{id} against `store`, which this same
  // candidate opened, asking `resolver` for the actor's allowed scopes at most
  // once. Bad input is an outcome; throws only what the store throws.
  virtual SegmentDownloadOutcome authorize(SegmentStore& store, ScopeResolver& resolver,
                                           const ServedTables& served,
                                           const SegmentDownloadRequest& request) = 0;
};

}  // namespace ssp::harness
