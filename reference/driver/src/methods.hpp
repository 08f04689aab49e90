// How the reference driver serves a method: one function per protocol method,
// registered per area (one file per area), called with the request's params.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "connection.hpp"
#include "ssp/push/push_pipeline.hpp"
#include "ssp/segments/segment_store.hpp"
#include "ssp/storage/server_storage.hpp"
#include "wire/wire_json.hpp"

namespace ssp::driver {

using wire::Fields;

// The request being served on this thread.
struct Call {
  Json id;
  Connection& connection;

  // A callback into the harness on behalf of this call (docs/driver-protocol.md, "Callbacks").
  Json callback(const std::string& method, Json params) const {
    return connection.callback(id, method, std::move(params));
  }
};

// The call the current thread serves. Hooks and hashers installed when a
// store was opened run on the thread of the put that reaches them.
const Call& current_call();
// Sets current_call() for the lifetime of the scope.
class CallScope {
 public:
  explicit CallScope(const Call& call);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  const Call* previous_;
};

// The handler of method "family.verb" is a file-private function named
// family_verb (storage_open, tx_close): names stay unique across the method
// files, which unity builds compile as one source.
using Method = std::function<Json(const Fields& params)>;
using MethodTable = std::map<std::string, Method, std::less<>>;

// Open objects by handle (docs/driver-protocol.md: handles are process-local).
template <class T>
class Handles {
 public:
  std::int64_t add(std::unique_ptr<T> object) {
    std::lock_guard lock(mutex_);
    objects_.emplace(++last_, std::shared_ptr<T>(std::move(object)));
    return last_;
  }
  // The object; throws WireError (ssp.bad_request) for an unknown or closed handle.
  std::shared_ptr<T> get(std::int64_t handle) const;
  void remove(std::int64_t handle) {
    std::lock_guard lock(mutex_);
    objects_.erase(handle);
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::int64_t, std::shared_ptr<T>> objects_;
  std::int64_t last_ = 0;
};

[[noreturn]] void throw_unknown_handle(std::int64_t handle);

template <class T>
std::shared_ptr<T> Handles<T>::get(std::int64_t handle) const {
  std::lock_guard lock(mutex_);
  const auto found = objects_.find(handle);
  if (found == objects_.end()) throw_unknown_handle(handle);
  return found->second;
}

// The segment stores this process opened (the download and signed-URL
// methods read them too).
Handles<SegmentStore>& segment_stores();
// The server storages this process opened (the push and transaction methods
// work on them too), and the one a request's "storage" field names.
Handles<storage::ServerStorage>& server_storages();
std::shared_ptr<storage::ServerStorage> server_storage_of(const Fields& params);
// The schema JSON of params.schema, compiled: the harness sends compiled
// schemas, so materialize is explicit for every table.
storage::CompiledSchema compiled_schema_of(const Fields& params);
// The schema a push.run or command.run runs under: params.schema when the
// request carries one (a harness before version 2, sixth revision), else the
// schema of the storage's last successful storage.ensure_schema, none before
// it (a schema with no table).
std::shared_ptr<const storage::CompiledSchema> push_schema_of(const Fields& params);
// The push options of a push.run request (push_methods.cpp): what
// carried_push_options reads, and its cap.
push::PushOptions push_options_of(const Fields& params);
// What push.run and command.run both carry: the clock value, the cache
// identity, and the callbacks the request asks for (hook points, row
// validators, the whole-commit validator, the notifier).
push::PushOptions carried_push_options(const Fields& params);
// Runs the commit of a push.run request with `options` and returns its
// PUSH_RESULT answer; a push abandoned by a callback is answered with its
// cause. push.run passes push_options_of(params); the fake drivers change one.
Json run_push_request(const Fields& params, const push::PushOptions& options);
// The same over `storage` instead of the storage of params: the fake drivers
// run the push through a decorator of the real one.
Json run_push_request(const Fields& params, const push::PushOptions& options,
                      storage::ServerStorage& storage);
// Runs the command.run request `params` over `storage` (the storage of
// params, or a fake driver's decorator of it) and returns its PUSH_RESULT.
Json run_command_request(const Fields& params, storage::ServerStorage& storage);
// Makes segments.open, storage.open, push.run and command.run of `table`
// refuse a request that asks for hook points (ssp.unsupported): what a driver
// that declares none serves (hook_refusal.cpp).
void refuse_hook_requests(MethodTable& table);
// Called by storage.close: forgets the storage's transactions, rolling back
// the unfinished ones (transaction_methods.cpp).
void close_transactions_of(std::int64_t storage_handle);

// One registration per area.
void add_segment_methods(MethodTable& table);
void add_storage_methods(MethodTable& table);
void add_push_methods(MethodTable& table);
void add_command_methods(MethodTable& table);
void add_transaction_methods(MethodTable& table);
void add_scope_methods(MethodTable& table);
void add_row_methods(MethodTable& table);
void add_schema_methods(MethodTable& table);
void add_download_methods(MethodTable& table);
void add_signed_url_methods(MethodTable& table);
void add_error_catalog_methods(MethodTable& table);

}  // namespace ssp::driver
