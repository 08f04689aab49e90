#include "harness/candidate/reference_areas.hpp"

#include "ssp/download/download_decision.hpp"
#include "ssp/download/signed_url.hpp"
#include "ssp/errors/error_catalog.hpp"
#include "ssp/push/push_pipeline.hpp"
#include "ssp/push/remote_command.hpp"
#include "ssp/scopes/effective_scopes.hpp"
#include "ssp/scopes/parse_scope_map.hpp"
#include "ssp/scopes/scope_digest.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/schema_compile.hpp"
#include "wire/schema_json.hpp"

namespace ssp::harness {
namespace {

class ReferenceScopeArea final : public ScopeArea {
 public:
  ScopeDigestAnswer digest(const ScopeMap& scopes) override {
    return {canonical_scope_json(scopes), scope_digest(scopes)};
  }
  ScopeMap parse(std::string_view text) override { return parse_scope_map(text); }
  EffectiveScopes effective(const ScopeMap& requested, const ScopeMap& allowed) override {
    return compute_effective(requested, allowed);
  }
};

class ReferenceRowArea final : public RowArea {
 public:
  storage::Bytes encode(std::span<const storage::ColumnLayout> columns,
                        const storage::Row& row) override {
    return storage::encode_row(columns, row);
  }
  storage::Row decode(std::span<const storage::ColumnLayout> columns,
                      std::span<const std::uint8_t> payload) override {
    return storage::decode_row(columns, payload);
  }
};

class ReferenceSchemaArea final : public SchemaArea {
 public:
  storage::ServerSchema parse(std::string_view text) override {
    return storage::parse_schema_json(text);
  }
  CompiledSchemaAnswer compile(const storage::ServerSchema& schema) override {
    storage::CompiledSchema compiled = storage::compile_schema(schema);
    std::string layouts = storage::layouts_json(compiled);
    return {std::move(compiled), std::move(layouts)};
  }
};

class ReferenceDownloadArea final : public DownloadArea {
 public:
  SegmentDownloadOutcome authorize(SegmentStore& store, ScopeResolver& resolver,
                                   const ServedTables& served,
                                   const SegmentDownloadRequest& request) override {
    return authorize_segment_download(store, resolver, served, request);
  }
};

class ReferenceSignedUrlArea final : public SignedUrlArea {
 public:
  std::string audience(const UrlSigningKey& key, const std::string& partition) override {
    return signer(key).audience(partition);
  }
  SignedSegmentUrl mint(const UrlSigningKey& key, const std::string& segment_id,
                        const std::string& scope_digest, const std::string& partition,
                        std::int64_t now_ms, std::int64_t ttl_ms) override {
    return signer(key).mint(segment_id, scope_digest, partition, now_ms, ttl_ms);
  }
  std::string sign_payload(const UrlSigningKey& key, std::string_view payload_json) override {
    return signer(key).sign_payload(payload_json);
  }
  SignedUrlVerdict verify(const UrlSigningKey& key, std::string_view token,
                          const std::string& segment_id, SegmentStore& store,
                          const CurrentEpochLookup& current_epoch, std::int64_t now_ms) override {
    return signer(key).verify(token, segment_id, store, current_epoch, now_ms);
  }

 private:
  static SegmentUrlSigner signer(const UrlSigningKey& key) {
    return SegmentUrlSigner(key.key, key.skew_seconds);
  }
};

class ReferenceErrorCatalogArea final : public ErrorCatalogArea {
 public:
  std::vector<ErrorCatalogRow> list() override {
    std::vector<ErrorCatalogRow> rows;
    for (const ErrorCatalogEntry& entry : ssp::error_catalog()) {
      rows.push_back({std::string(entry.code), std::string(entry.category), entry.retryable,
                      std::string(entry.recommended_action), entry.http_status});
    }
    return rows;
  }
};

// The clock and the cache identity as the driver protocol carries them:
// read once, before the push (push_area.hpp), so that a test sees the same
// reads in process and through a driver.
push::PushOptions values_read_once(const push::PushOptions& options) {
  if (!options.clock) throw InvalidArgument("PushOptions::clock is required");
  push::PushOptions fixed = options;
  fixed.clock = [now = options.clock()] { return now; };
  if (options.new_cache_identity) {
    fixed.new_cache_identity = [identity = options.new_cache_identity()] { return identity; };
  }
  return fixed;
}

class ReferencePushArea final : public PushArea {
 public:
  push::PushAnswer push(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                        const push::PushActor& actor, const push::PushCommit& commit,
                        const push::PushOptions& options) override {
    return push::run_push(storage, schema, actor, commit, values_read_once(options));
  }
};

class ReferenceCommandArea final : public CommandArea {
 public:
  push::PushAnswer command(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                           const push::PushActor& actor, const push::CommandRequest& request,
                           const std::optional<wire::DeclaredCommand>& declared, bool authorized,
                           const push::PushOptions& options) override {
    push::CommandRegistry registry;
    if (declared) registry[request.operation_id] = wire::reference_command(*declared, authorized);
    return push::run_remote_command(storage, schema, actor, registry, request,
                                    values_read_once(options));
  }
};

}  // namespace

ScopeArea& reference_scope_area() {
  static ReferenceScopeArea area;
  return area;
}
RowArea& reference_row_area() {
  static ReferenceRowArea area;
  return area;
}
SchemaArea& reference_schema_area() {
  static ReferenceSchemaArea area;
  return area;
}
DownloadArea& reference_download_area() {
  static ReferenceDownloadArea area;
  return area;
}
SignedUrlArea& reference_signed_url_area() {
  static ReferenceSignedUrlArea area;
  return area;
}
ErrorCatalogArea& reference_error_catalog_area() {
  static ReferenceErrorCatalogArea area;
  return area;
}
PushArea& reference_push_area() {
  static ReferencePushArea area;
  return area;
}
CommandArea& reference_command_area() {
  static ReferenceCommandArea area;
  return area;
}

}  // namespace ssp::harness
