#include "harness/driver/driver_segment_store.hpp"

#include <vector>

#include "harness/driver/driver_handle.hpp"
#include "harness/driver/driver_location.hpp"
#include "harness/errors/driver_error.hpp"
#include "ssp/encoding/base64.hpp"
#include "wire/hook_points.hpp"
#include "wire/segment_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Json;

constexpr PutHookPoint kAllPoints[] = {PutHookPoint::before_begin, PutHookPoint::after_read,
                                       PutHookPoint::before_commit};

std::string describe(const std::vector<PutHookPoint>& points) {
  std::string text = "[";
  for (const auto point : points) {
    if (text.size() > 1) text += ", ";
    text += wire::put_hook_point_name(point);
  }
  return text + "]";
}

class DriverSegmentStore final : public SegmentStore {
 public:
  DriverSegmentStore(const std::string& command, const DatabaseLocation& location,
                     SegmentStoreOptions options)
      : options_(std::move(options)),
        handle_(command, "segments", "store",
                {{"location", location_to_json(location)},
                 {"options",
                  {{"ttlMs", options_.ttl_ms},
                   {"lockWaitMs", options_.lock_wait_ms},
                   {"readOnly", options_.read_only},
                   {"hooks", static_cast<bool>(options_.put_hook)},
                   {"hasher", injects_hasher(options_) ? "callback" : "sha256"}}}}) {}

  SegmentRecord put(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                    std::int64_t now_ms) override {
    const std::string method = handle_.method("put");
    std::vector<PutHookPoint> passed;
    int hashes = 0;
    const auto on_callback = [&](const std::string& name, const wire::Fields& params) -> Json {
      if (name == "hook" && options_.put_hook) {
        const auto point = wire::put_hook_point_from_name(params.text("point"));
        if (!point) throw wire::WireError(params.path_of("point") + ": not a put hook point");
        if (!passed.empty() && *point <= passed.back()) {
          throw DriverError(method, "protocol violation: hook point " +
                                        std::string(wire::put_hook_point_name(*point)) +
                                        " after " + describe(passed));
        }
        passed.push_back(*point);
        options_.put_hook(*point);
        return Json::object();
      }
      if (name == "hash" && injects_hasher(options_)) {
        ++hashes;
        return {{"segmentId", options_.hasher(params.bytes("bytes"))}};
      }
      throw DriverError(method, "protocol violation: a " + name +
                                    " callback the store was not opened with");
    };
    const Json result = handle_.call("put",
                                     {{"metadata", wire::metadata_to_json(metadata)},
                                      {"bytes", base64_encode(bytes)},
                                      {"nowMs", now_ms}},
                                     on_callback);
    if (options_.put_hook && !std::equal(passed.begin(), passed.end(), std::begin(kAllPoints),
                                         std::end(kAllPoints))) {
      throw DriverError(method, "protocol violation: a put succeeded after passing hook points " +
                                    describe(passed) + ", not all three in order");
    }
    if (injects_hasher(options_) && hashes != 1) {
      throw DriverError(method, "protocol violation: a put succeeded after asking for its content "
                                "address " + std::to_string(hashes) +
                                    " times (hash callback), not once");
    }
    return decode_answer(method, [&] {
      return wire::record_from_json(wire::Fields(result, "result").at("record"), "result.record");
    });
  }

  std::optional<StoredSegment> get(const std::string& segment_id) override {
    const Json result = handle_.call("get", {{"segmentId", segment_id}});
    return decode_answer(handle_.method("get"), [&]() -> std::optional<StoredSegment> {
      const Json& segment = wire::Fields(result, "result").at("segment");
      if (segment.is_null()) return std::nullopt;
      return wire::stored_segment_from_json(segment, "result.segment");
    });
  }

  std::optional<SegmentRecord> find(const SegmentFindKey& key, std::int64_t now_ms) override {
    const Json result = handle_.call("find", {{"key", wire::find_key_to_json(key)}, {"nowMs", now_ms}});
    return decode_answer(handle_.method("find"), [&]() -> std::optional<SegmentRecord> {
      const Json& record = wire::Fields(result, "result").at("record");
      if (record.is_null()) return std::nullopt;
      return wire::record_from_json(record, "result.record");
    });
  }

  DriverHandle& handle() { return handle_; }

  SegmentStoreStats stats() override {
    const Json result = handle_.call("stats", Json::object());
    return decode_answer(handle_.method("stats"), [&] {
      return wire::stats_from_json(wire::Fields(result, "result").at("stats"), "result.stats");
    });
  }

 private:
  const SegmentStoreOptions options_;
  DriverHandle handle_;
};

}  // namespace

DriverHandle* driver_handle_of(SegmentStore& store) {
  auto* driver_store = dynamic_cast<DriverSegmentStore*>(&store);
  return driver_store ? &driver_store->handle() : nullptr;
}

bool injects_hasher(const SegmentStoreOptions& options) {
  return static_cast<bool>(options.hasher);
}

std::unique_ptr<SegmentStore> open_driver_segment_store(const std::string& command,
                                                        const DatabaseLocation& location,
                                                        const SegmentStoreOptions& options) {
  return std::make_unique<DriverSegmentStore>(command, location, options);
}

}  // namespace ssp::harness
