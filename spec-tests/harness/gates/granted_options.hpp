// The only way a test switches on an optional mechanism of the candidate:
// each setter takes the grant of its capability (capability_gate.hpp), which
// exists only after the test asked and was not skipped. The catalog check
// HARNESS-25 refuses a test source that sets these options directly.
#pragma once

#include <functional>

#include "harness/gates/capability_gate.hpp"
#include "ssp/push/push_types.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::harness {

// Sets options.put_hook; `hooks` must be the grant of Capability::hooks.
void install_put_hook(const CapabilityGrant& hooks, SegmentStoreOptions& options,
                      std::function<void(PutHookPoint)> hook);

// Sets options.ensure_hook; `hooks` must be the grant of Capability::hooks.
void install_ensure_hook(const CapabilityGrant& hooks, storage::ServerStorageOptions& options,
                         std::function<void(storage::EnsureHookPoint)> hook);

// Sets options.hook of a push; `push_hooks` must be the grant of
// Capability::push_hooks.
void install_push_hook(const CapabilityGrant& push_hooks, push::PushOptions& options,
                       std::function<void(push::PushHookPoint)> hook);

// Sets options.hasher; `hasher` must be the grant of Capability::injected_hasher.
void inject_hasher(const CapabilityGrant& hasher, SegmentStoreOptions& options,
                   ContentHasher content_hasher);

// Sets options.read_only; `read_only` must be the grant of Capability::read_only_open.
void open_read_only(const CapabilityGrant& read_only, SegmentStoreOptions& options);

}  // namespace ssp::harness
