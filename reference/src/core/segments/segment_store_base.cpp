#include "segment_store_base.hpp"

#include <chrono>

#include "ssp/errors/errors.hpp"
#include "ssp/segments/publication_selection.hpp"
#include "ssp/segments/segment_id.hpp"
#include "ssp/segments/segment_put.hpp"
#include "ssp/segments/segment_validation.hpp"

namespace ssp {

SegmentStoreBase::SegmentStoreBase(std::string name, SegmentStoreOptions options)
    : name_(std::move(name)), options_(validated(std::move(options))) {}

void SegmentStoreBase::hook(PutHookPoint point) const {
  if (options_.put_hook) options_.put_hook(point);
}

template <typename Work>
auto SegmentStoreBase::locked(std::string_view operation, Work&& work) -> decltype(work()) {
  std::lock_guard lock(mutex_);
  try {
    return work();
  } catch (const StorageError& error) {
    // Appended piece by piece: GCC 12's -Wrestrict misfires on an inlined
    // `"literal" + std::string&&` in optimized builds.
    std::string what = name_;
    what.append(": ").append(operation).append(": ").append(error.what());
    throw StorageError(what);
  }
}

SegmentRecord SegmentStoreBase::put(const SegmentMetadata& metadata,
                                    std::span<const std::uint8_t> bytes, std::int64_t now_ms) {
  validate_put(metadata, now_ms);
  if (options_.read_only) throw ReadOnlyStore(name_ + ": opened read-only");
  const std::string id = options_.hasher(bytes);
  hook(PutHookPoint::before_begin);

  std::unique_lock lock(mutex_, std::defer_lock);
  const auto fail = [&](std::string_view why) {
    std::string what = name_;
    what.append(": put ").append(id).append(": ").append(why);
    return StorageError(what);
  };
  if (!lock.try_lock_for(std::chrono::milliseconds(options_.lock_wait_ms))) {
    throw fail("another put on this store held its lock past lock_wait_ms");
  }
  try {
    if (!options_.put_hook && offers_insert_if_absent()) {
      SegmentRecord fresh = decide_put(std::nullopt, false, name_, metadata, id,
                                       static_cast<std::int64_t>(bytes.size()), now_ms,
                                       options_.ttl_ms);
      if (insert_if_absent(fresh, bytes)) return fresh;
    }
    const std::unique_ptr<SegmentPutTransaction> transaction = begin_put(id);
    const std::optional<SegmentRecord> existing = transaction->read();
    const bool bytes_equal = existing && transaction->stored_bytes_equal(bytes);
    hook(PutHookPoint::after_read);
    SegmentRecord record = decide_put(existing, bytes_equal, name_, metadata, id,
                                      static_cast<std::int64_t>(bytes.size()), now_ms,
                                      options_.ttl_ms);
    transaction->write(record, bytes);
    hook(PutHookPoint::before_commit);
    transaction->commit();
    return record;
  } catch (const StorageError& error) {  // the transaction has rolled back
    throw fail(error.what());
  }
}

std::optional<StoredSegment> SegmentStoreBase::get(const std::string& segment_id) {
  if (!is_well_formed_segment_id(segment_id)) return std::nullopt;
  return locked(std::string("get ").append(segment_id), [&] { return read_segment(segment_id); });
}

std::optional<SegmentRecord> SegmentStoreBase::find(const SegmentFindKey& key,
                                                    std::int64_t now_ms) {
  const std::vector<SegmentRecord> candidates =
      locked("find", [&] { return find_candidates(key); });
  return choose_find_result(candidates, key, now_ms);
}

SegmentStoreStats SegmentStoreBase::stats() {
  return locked("stats", [&] { return read_stats(); });
}

}  // namespace ssp
