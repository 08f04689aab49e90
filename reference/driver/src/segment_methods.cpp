// segments.* (docs/driver-protocol.md, "segments") over the reference stores.
#include "location.hpp"
#include "methods.hpp"
#include "ssp/encoding/base64.hpp"
#include "ssp/memory/memory_segment_store.hpp"
#include "ssp/postgres/postgres_segment_store.hpp"
#include "ssp/sqlite/sqlite_segment_store.hpp"
#include "wire/hook_points.hpp"
#include "wire/segment_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

SegmentStoreOptions segment_options_from(const Fields& f) {
  SegmentStoreOptions options;
  options.ttl_ms = f.integer("ttlMs");
  options.lock_wait_ms = f.integer("lockWaitMs");
  options.read_only = f.boolean("readOnly");
  if (f.boolean("hooks")) {
    options.put_hook = [](PutHookPoint point) {
      current_call().callback("hook", {{"point", wire::put_hook_point_name(point)}});
    };
  }
  const std::string hasher = f.text("hasher");
  if (hasher == "callback") {
    options.hasher = [](std::span<const std::uint8_t> bytes) {
      const Json answer = current_call().callback("hash", {{"bytes", base64_encode(bytes)}});
      return Fields(answer, "hash").text("segmentId");
    };
  } else if (hasher != "sha256") {
    throw wire::WireError(f.path_of("hasher") + ": not sha256 or callback");
  }
  return options;
}

Json segments_open(const Fields& params) {
  const Location location = location_from_json(params.object("location"));
  const SegmentStoreOptions options = segment_options_from(params.object("options"));
  std::unique_ptr<SegmentStore> store;
  if (location.backend == "memory") store = make_memory_segment_store(options);
  if (location.backend == "sqlite") store = open_sqlite_segment_store(location.path, options);
  if (location.backend == "postgres") {
    store = open_postgres_segment_store(location.dsn, location.schema, options);
  }
  return Json{{"store", segment_stores().add(std::move(store))}};
}

std::shared_ptr<SegmentStore> store_of(const Fields& params) {
  return segment_stores().get(params.integer("store"));
}

Json segments_put(const Fields& params) {
  const SegmentMetadata metadata =
      wire::metadata_from_json(params.at("metadata"), params.path_of("metadata"));
  const Bytes bytes = params.bytes("bytes");
  const SegmentRecord record = store_of(params)->put(metadata, bytes, params.integer("nowMs"));
  return Json{{"record", wire::record_to_json(record)}};
}

Json segments_get(const Fields& params) {
  const auto segment = store_of(params)->get(params.text("segmentId"));
  return Json{{"segment", segment ? wire::stored_segment_to_json(*segment) : Json()}};
}

Json segments_find(const Fields& params) {
  const SegmentFindKey key = wire::find_key_from_json(params.at("key"), params.path_of("key"));
  const auto record = store_of(params)->find(key, params.integer("nowMs"));
  return Json{{"record", record ? Json(wire::record_to_json(*record)) : Json()}};
}

Json segments_stats(const Fields& params) {
  return Json{{"stats", wire::stats_to_json(store_of(params)->stats())}};
}

Json segments_close(const Fields& params) {
  segment_stores().remove(params.integer("store"));
  return Json::object();
}

}  // namespace

Handles<SegmentStore>& segment_stores() {
  static Handles<SegmentStore> stores;
  return stores;
}

void add_segment_methods(MethodTable& table) {
  table["segments.open"] = segments_open;
  table["segments.put"] = segments_put;
  table["segments.get"] = segments_get;
  table["segments.find"] = segments_find;
  table["segments.stats"] = segments_stats;
  table["segments.close"] = segments_close;
}

}  // namespace ssp::driver
