#include "harness/gates/capability_gate.hpp"

#include "harness/errors/harness_error.hpp"
#include "harness/gates/suite_capabilities.hpp"

namespace ssp::harness {

std::string_view capability_name(Capability capability) {
  switch (capability) {
    case Capability::segment_store: return "the segment store";
    case Capability::server_storage: return "the server storage";
    case Capability::hooks: return "parking at hook points";
    case Capability::injected_hasher: return "an injected content hasher";
    case Capability::read_only_open: return "a read-only open of the segment store";
    case Capability::scope: return "the scope rules (scope.*)";
    case Capability::rows: return "the row codec (rows.*)";
    case Capability::schema: return "the schema rules (schema.*)";
    case Capability::download: return "the download decision (download.*)";
    case Capability::signed_url: return "signed URLs (signed_url.*)";
    case Capability::error_catalog: return "the error catalog (error_catalog.*)";
    case Capability::push: return "the push path (push.run and the commit log reads)";
    case Capability::transactions: return "the raw push transaction (storage.begin, tx.*)";
    case Capability::push_hooks: return "parking a push at its hook points H0-H6";
    case Capability::commands: return "registered remote commands (command.run)";
    case Capability::command_callbacks:
      return "a command's validators and notifier (command.run callbacks)";
    case Capability::authoritative_queries:
      return "authoritative queries (storage.query_authoritative)";
    case Capability::table_window: return "pull's read (storage.read_table_window)";
    case Capability::partition_registry:
      return "the partition registry (storage.touch_partition and the methods beside it)";
    case Capability::upstream_tables:
      return "upstream 0.22's storage tables under their names (read and edited by SQL)";
    case Capability::schema_reports:
      return "schema reports (what ensure_schema did, and preview_schema)";
    case Capability::process_kill: return "being killed at a callback (a process of its own)";
  }
  return "an unknown capability";
}

std::string_view capability_key(Capability capability) {
  switch (capability) {
    case Capability::segment_store: return "segment_store";
    case Capability::server_storage: return "server_storage";
    case Capability::hooks: return "hooks";
    case Capability::injected_hasher: return "injected_hasher";
    case Capability::read_only_open: return "read_only_open";
    case Capability::scope: return "scope";
    case Capability::rows: return "rows";
    case Capability::schema: return "schema";
    case Capability::download: return "download";
    case Capability::signed_url: return "signed_url";
    case Capability::error_catalog: return "error_catalog";
    case Capability::push: return "push";
    case Capability::transactions: return "transactions";
    case Capability::push_hooks: return "push_hooks";
    case Capability::commands: return "commands";
    case Capability::command_callbacks: return "command_callbacks";
    case Capability::authoritative_queries: return "authoritative_queries";
    case Capability::table_window: return "table_window";
    case Capability::partition_registry: return "partition_registry";
    case Capability::upstream_tables: return "upstream_tables";
    case Capability::schema_reports: return "schema_reports";
    case Capability::process_kill: return "process_kill";
  }
  return "unknown";
}

void record_missing_capability(Capability capability) {
  ::testing::Test::RecordProperty("missing_capability", std::string(capability_key(capability)));
}

std::optional<std::string> capability_gate(const Candidate& candidate, Capability capability) {
  require_declared_capability(capability);
  if (candidate.has(capability)) return std::nullopt;
  std::string reason = "candidate " + candidate.name() + " does not implement " +
                       std::string(capability_name(capability));
  if (const std::string because = candidate.lacks_because(capability); !because.empty()) {
    reason += ": " + because;
  }
  return reason;
}

void CapabilityGrant::require(Capability needed) const {
  if (capability_ != needed) {
    throw HarnessError("a helper needing " + std::string(capability_name(needed)) +
                       " was given the grant of " + std::string(capability_name(capability_)));
  }
}

CapabilityGrant grant(const Candidate& candidate, Capability capability) {
  if (const auto missing = capability_gate(candidate, capability)) {
    throw HarnessError("granted without the gate: " + *missing);
  }
  return CapabilityGrant(capability);
}

std::optional<CapabilityGrant> optional_grant(const Candidate& candidate, Capability capability) {
  require_declared_capability(capability);
  if (!candidate.has(capability)) return std::nullopt;
  return CapabilityGrant(capability);
}

}  // namespace ssp::harness
