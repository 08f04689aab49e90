// Whether a server storage's core tables (sync_*) exist, as its reads ask
// before they touch them. Before the first ensure_schema they may not exist
// yet, and a read then answers "nothing stored" rather than a missing-table
// error. That ensure_schema creates them all in one transaction and nothing
// drops them, so once seen they are not looked for again: the optimistic
// lookup every push starts with saves a statement (issue 22).
#pragma once

namespace ssp::storage {

// Not thread-safe: a storage asks under the lock of the connection `look`
// uses (ServerStorageBase's read_mutex_ for the reader).
class CoreTablesSeen {
 public:
  // True once `look()`, the backend's catalog query, has returned true;
  // `look` is not called again after that.
  template <typename Look>
  bool exist(Look&& look) {
    if (!seen_) seen_ = look();
    return seen_;
  }

 private:
  bool seen_ = false;
};

}  // namespace ssp::storage
