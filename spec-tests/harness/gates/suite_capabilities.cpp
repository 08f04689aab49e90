#include "harness/gates/suite_capabilities.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/catalog/catalog.hpp"
#include "harness/errors/harness_error.hpp"
#include "harness/gates/capability_gate.hpp"

namespace ssp::harness {

const std::map<std::string, std::vector<Capability>>& suite_capabilities() {
  using enum Capability;
  // Each line as a run against the reference asked (every gate opens
  // there); a new ask fails its test with the line to change.
  static const std::map<std::string, std::vector<Capability>> table = {
      {"AuthorizeTool", {segment_store}},
      {"BackendEquivalence", {server_storage, rows, schema}},
      {"CommitLog", {server_storage, rows, schema, push, transactions, upstream_tables}},
      {"ContentAddress", {segment_store}},
      {"DownloadOracle", {scope, download}},
      {"EdgeJsonDownload", {segment_store, download}},
      {"EdgeJsonSchema", {schema}},
      {"EdgeJsonScope", {scope}},
      {"EdgeJsonSignedUrl", {segment_store, signed_url}},
      {"ErrorCatalog", {error_catalog}},
      {"JsonInput", {schema}},
      {"JsonInputSignedUrl", {segment_store, signed_url}},
      {"JsonInputStorage", {server_storage, rows, schema}},
      {"Layouts", {server_storage, rows, schema}},
      {"LegacyUpgrade", {server_storage, rows, schema}},
      {"Marker", {server_storage, rows, schema}},
      {"Migration", {server_storage, rows, schema, schema_reports}},
      {"MigrationProperties", {server_storage, rows, schema}},
      {"PartitionRegistry",
       {server_storage, rows, schema, push, partition_registry, upstream_tables}},
      {"PhysicalCheck", {server_storage, rows, schema}},
      {"PostgresNewIdPut", {hooks}},
      {"PropConcurrency", {segment_store, injected_hasher}},
      {"PropModel", {segment_store, injected_hasher}},
      {"PullPrivacy", {server_storage, rows, schema, push, table_window}},
      {"PushAtomicity", {server_storage, rows, schema, push}},
      {"PushConcurrency", {server_storage, rows, schema, push, transactions, push_hooks, commands}},
      {"PushCrash", {server_storage, rows, schema, push, push_hooks}},
      {"PushFaults", {server_storage, rows, schema, push, push_hooks, commands, process_kill}},
      {"StartupFaults", {server_storage, rows, schema, hooks, process_kill}},
      {"PushFailClosed", {server_storage, rows, schema, push, transactions}},
      {"PushInput", {server_storage, rows, schema, push, push_hooks}},
      {"PushLog", {server_storage, rows, schema, push, push_hooks, upstream_tables}},
      {"PushModel", {server_storage, rows, schema, push}},
      {"PushResults", {server_storage, rows, schema, push, transactions, push_hooks, upstream_tables}},
      {"PushRows", {server_storage, rows, schema, push}},
      {"PushTransaction", {server_storage, rows, schema, push, transactions, upstream_tables}},
      {"PushValidators", {server_storage, rows, schema, push}},
      {"QueryAuthoritative",
       {server_storage, rows, schema, push, push_hooks, authoritative_queries}},
      {"Race",
       {segment_store, server_storage, hooks, rows, schema, push, transactions, push_hooks,
        commands, command_callbacks}},
      {"ReferenceAbsentRowScopes", {server_storage, rows, schema, push, transactions}},
      {"ReferencePartitionLock", {server_storage, rows, schema, push, transactions}},
      {"ReferencePushClock", {server_storage, rows, schema, push}},
      {"ReferencePushFailure", {server_storage, rows, schema, push}},
      {"ReferencePushRoundTrips", {server_storage, rows, schema, push}},
      {"ReferenceStagedWrites", {server_storage, rows, schema, push, transactions}},
      {"RemoteCommand", {server_storage, rows, schema, push, commands}},
      {"RowCodec", {rows}},
      {"SameVersionLayouts", {server_storage, rows, schema}},
      {"SchemaIr", {schema}},
      {"ScopeDigest", {scope}},
      {"ScopeDigestProperties", {scope}},
      {"ScopeResolution", {scope}},
      {"ScopesHeader", {segment_store, download}},
      {"SegmentAtomicity", {segment_store}},
      {"SegmentContexts", {segment_store}},
      {"SegmentDownload", {segment_store, download}},
      {"SegmentExpiry", {segment_store}},
      {"SegmentFindWithinARecord", {segment_store}},
      {"SegmentIdentity", {segment_store, injected_hasher}},
      {"SegmentInput", {segment_store}},
      {"SegmentMerge", {segment_store}},
      {"SegmentPutFaults", {segment_store, injected_hasher, hooks, process_kill}},
      {"SegmentRecordOrder", {segment_store}},
      {"SegmentReuse", {segment_store}},
      {"SegmentStats", {segment_store}},
      {"SegmentStoreContract", {segment_store, hooks, injected_hasher, read_only_open}},
      {"ServerReadiness", {server_storage, rows, schema}},
      {"SignedUrl", {segment_store, signed_url}},
      {"SqliteStorageDurability", {server_storage, rows, schema, push}},
      {"SspSegmentsTool", {segment_store}},
      {"SspSegmentsToolLegacy", {segment_store}},
      {"StartupProperties", {server_storage, rows, schema}},
      {"StorageTool", {server_storage, rows, schema}},
      {"StorageToolLog", {server_storage, rows, schema, push}},
      {"StoredMediaType", {segment_store}},
      {"StoredPublicationKey", {segment_store}},
      {"TableWindow", {server_storage, rows, schema, push, table_window}},
      {"UpgradeFrom021", {segment_store, read_only_open}},
      {"UpstreamSegmentTables", {segment_store}},
      {"VisiblePrefix", {server_storage, rows, schema, push}},
      {"VisiblePrefixUnderRepeatableRead", {server_storage, rows, schema, push}},
  };
  return table;
}

std::map<std::string, std::string> suite_capability_keys() {
  std::map<std::string, std::string> keys;
  for (const auto& [suite, capabilities] : suite_capabilities()) {
    std::string joined;
    for (const Capability capability : capabilities) {
      joined += (joined.empty() ? "" : ", ") + std::string(capability_key(capability));
    }
    keys.emplace(suite, joined);
  }
  return keys;
}

void require_declared_capability(Capability capability) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (test == nullptr) return;
  const std::string name = catalog_test_name(test->test_suite_name(), test->name());
  const std::string suite = name.substr(0, name.find('.'));
  const auto declared = suite_capabilities().find(suite);
  if (declared == suite_capabilities().end() ||
      std::find(declared->second.begin(), declared->second.end(), capability) ==
          declared->second.end()) {
    throw HarnessError("test " + name + " asks for " + std::string(capability_name(capability)) +
                       ", which harness/gates/suite_capabilities.cpp does not declare for suite " +
                       suite + " (add it there: --list shows that table)");
  }
}

}  // namespace ssp::harness
