#include "harness/gates/granted_options.hpp"

namespace ssp::harness {

void install_put_hook(const CapabilityGrant& hooks, SegmentStoreOptions& options,
                      std::function<void(PutHookPoint)> hook) {
  hooks.require(Capability::hooks);
  options.put_hook = std::move(hook);
}

void install_ensure_hook(const CapabilityGrant& hooks, storage::ServerStorageOptions& options,
                         std::function<void(storage::EnsureHookPoint)> hook) {
  hooks.require(Capability::hooks);
  options.ensure_hook = std::move(hook);
}

void install_push_hook(const CapabilityGrant& push_hooks, push::PushOptions& options,
                       std::function<void(push::PushHookPoint)> hook) {
  push_hooks.require(Capability::push_hooks);
  options.hook = std::move(hook);
}

void inject_hasher(const CapabilityGrant& hasher, SegmentStoreOptions& options,
                   ContentHasher content_hasher) {
  hasher.require(Capability::injected_hasher);
  options.hasher = std::move(content_hasher);
}

void open_read_only(const CapabilityGrant& read_only, SegmentStoreOptions& options) {
  read_only.require(Capability::read_only_open);
  options.read_only = true;
}

}  // namespace ssp::harness
