// Typed errors of the reference implementation. Each names the object it refuses.
#pragma once

#include <stdexcept>
#include <string>

namespace ssp {

// Base of every error the reference throws on purpose.
class SspError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An argument outside the contract (a field out of the safe-integer range, a
// string that is not UTF-8, a non-positive TTL). Nothing was read or written.
class InvalidArgument : public SspError {
 public:
  using SspError::SspError;
};

// §5.1: stored bytes under `segment_id` differ from the bytes being put. The
// message contains "content-address collision" and the id; nothing was written.
class SegmentCollision : public SspError {
 public:
  SegmentCollision(const std::string& store_name, const std::string& segment_id);
  const std::string& segment_id() const { return segment_id_; }

 private:
  std::string segment_id_;
};

// The backend failed (I/O, lock wait exceeded, constraint, injected fault).
// The operation had no effect: its transaction was rolled back. The first
// line of the message names the failure without internal SQL (operator tools
// print only it); later lines carry diagnostics such as the statement.
class StorageError : public SspError {
 public:
  using SspError::SspError;
};

// A write was asked of a store opened read-only.
class ReadOnlyStore : public SspError {
 public:
  using SspError::SspError;
};

}  // namespace ssp
