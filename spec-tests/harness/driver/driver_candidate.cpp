#include "harness/driver/driver_candidate.hpp"

#include "harness/driver/driver_areas.hpp"
#include "harness/driver/driver_handle.hpp"
#include "harness/driver/driver_hello.hpp"
#include "harness/driver/driver_location.hpp"
#include "harness/driver/driver_segment_store.hpp"
#include "harness/driver/driver_server_storage.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/errors/harness_error.hpp"

namespace ssp::harness {
namespace {

class DriverCandidate final : public Candidate {
 public:
  explicit DriverCandidate(const std::string& command)
      : command_(command),
        session_(std::make_unique<DriverProcess>(command, driver_limits())),
        hello_(say_hello(*session_)) {}

  std::string name() const override { return hello_.name; }

  bool supports(Backend backend) const override {
    return hello_.backends.contains(std::string(backend_name(backend)));
  }

  bool persists(Backend backend) const override { return backend != Backend::memory; }

  bool has(Capability capability) const override {
    switch (capability) {
      case Capability::segment_store: return hello_.areas.contains("segments");
      case Capability::server_storage: return hello_.areas.contains("storage");
      case Capability::hooks: return hello_.hooks;
      case Capability::injected_hasher: return hello_.hasher;
      case Capability::read_only_open: return hello_.read_only;
      case Capability::scope: return hello_.areas.contains("scope");
      case Capability::rows: return hello_.areas.contains("rows");
      case Capability::schema: return hello_.areas.contains("schema");
      case Capability::download: return hello_.areas.contains("download");
      case Capability::signed_url: return hello_.areas.contains("signed_url");
      case Capability::error_catalog: return hello_.areas.contains("error_catalog");
      case Capability::push: return hello_.push && has_all_areas({"storage", "rows"});
      case Capability::transactions: return hello_.transactions && has_all_areas({"storage"});
      case Capability::push_hooks: return hello_.push_hooks && has(Capability::push);
      case Capability::commands: return hello_.commands && has(Capability::push);
      case Capability::command_callbacks:
        return hello_.command_callbacks && has(Capability::commands);
      case Capability::authoritative_queries:
        return hello_.authoritative_queries && has(Capability::push);
      case Capability::table_window: return hello_.table_window && has(Capability::push);
      case Capability::partition_registry:
        return hello_.partition_registry && has(Capability::push);
      case Capability::upstream_tables:
        return hello_.upstream_tables && hello_.areas.contains("storage");
      case Capability::schema_reports:
        return hello_.schema_reports && hello_.areas.contains("storage");
      case Capability::process_kill:
        return true;  // every driver runs in a process group of its own
    }
    return false;
  }

  std::string lacks_because(Capability capability) const override {
    const bool pushing = capability == Capability::push ||
                         capability == Capability::transactions ||
                         capability == Capability::push_hooks ||
                         capability == Capability::commands ||
                         capability == Capability::command_callbacks ||
                         capability == Capability::authoritative_queries;
    if (pushing && hello_.protocol < 2) {
      return "the driver speaks protocol version " + std::to_string(hello_.protocol) +
             ", which has no push methods";
    }
    const bool storage_layer = capability == Capability::table_window ||
                               capability == Capability::partition_registry;
    if (storage_layer && hello_.protocol < 3) {
      return "the driver speaks protocol version " + std::to_string(hello_.protocol) +
             ", which has no storage reads beyond push's";
    }
    return {};
  }

  std::optional<int> calls_waiting_in_coordinator(const DatabaseLocation& location) override {
    if (!hello_.coordinator) return std::nullopt;
    const std::string method = "coordinator.waiting";
    const wire::Json result =
        session_->call(method, {{"location", location_to_json(location)}});
    return decode_answer(method, [&] {
      const auto waiting = wire::Fields(result, "result").integer("waiting");
      if (waiting < 0) {
        throw wire::WireError("result.waiting: a count, not " + std::to_string(waiting));
      }
      return static_cast<int>(waiting);
    });
  }

  std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                   const SegmentStoreOptions& options) override {
    require(Capability::segment_store, "segments.open");
    if (options.put_hook) require(Capability::hooks, "segments.open");
    if (injects_hasher(options)) require(Capability::injected_hasher, "segments.open");
    if (options.read_only) require(Capability::read_only_open, "segments.open");
    return open_driver_segment_store(command_, location, options);
  }

  std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) override {
    require(Capability::server_storage, "storage.open");
    if (options.ensure_hook) require(Capability::hooks, "storage.open");
    return open_driver_server_storage(command_, location, options, hello_.schema_reports);
  }

  void kill_process_of(storage::ServerStorage& storage) override {
    require(Capability::process_kill, "kill_process_of");
    DriverHandle* handle = driver_storage_handle(storage);
    if (handle == nullptr) {
      throw HarnessError("kill_process_of: the storage is not one this driver opened");
    }
    handle->kill_process("killed by the harness after its answer (a fault it injected)");
  }

  void kill_process_of(SegmentStore& store) override {
    require(Capability::process_kill, "kill_process_of");
    DriverHandle* handle = driver_handle_of(store);
    if (handle == nullptr) {
      throw HarnessError("kill_process_of: the store is not one this driver opened");
    }
    handle->kill_process("killed by the harness after its answer (a fault it injected)");
  }

    ScopeArea& scope() override { return area(Capability::scope, "scope.*", *scope_); }
  RowArea& rows() override { return area(Capability::rows, "rows.*", *rows_); }
  SchemaArea& schema() override { return area(Capability::schema, "schema.*", *schema_); }
  DownloadArea& download() override {
    return area(Capability::download, "download.*", *download_);
  }
  SignedUrlArea& signed_urls() override {
    return area(Capability::signed_url, "signed_url.*", *signed_urls_);
  }
  PushArea& push() override { return area(Capability::push, "push.*", *push_); }
  CommandArea& commands() override {
    return area(Capability::commands, "command.run", *commands_);
  }
  ErrorCatalogArea& error_catalog() override {
    return area(Capability::error_catalog, "error_catalog.*", *error_catalog_);
  }

 private:
  // A test reached a part the driver did not advertise: the test should have
  // skipped at its gate (capability_gate.hpp), so this is the suite's bug,
  // not the driver's error.
  void require(Capability capability, const std::string& method) const {
    if (!has(capability)) {
      throw HarnessError(method + ": the test needs " + std::string(capability_name(capability)) +
                         ", which the driver's hello does not advertise, and did not skip at "
                         "its capability gate");
    }
  }

  bool has_all_areas(std::initializer_list<std::string_view> areas) const {
    for (const std::string_view needed : areas) {
      if (!hello_.areas.contains(std::string(needed))) return false;
    }
    return true;
  }

  template <class Area>
  Area& area(Capability capability, const std::string& methods, Area& implementation) const {
    require(capability, methods);
    return implementation;
  }

  const std::string command_;
  // The process of the hello, kept for the run: methods that need no store
  // are sent to it.
  const std::unique_ptr<DriverProcess> session_;
  const DriverHello hello_;
  const std::unique_ptr<ScopeArea> scope_ = make_driver_scope_area(*session_);
  const std::unique_ptr<RowArea> rows_ = make_driver_row_area(*session_);
  const std::unique_ptr<SchemaArea> schema_ = make_driver_schema_area(*session_);
  const std::unique_ptr<DownloadArea> download_ = make_driver_download_area();
  const std::unique_ptr<SignedUrlArea> signed_urls_ = make_driver_signed_url_area(*session_);
  const std::unique_ptr<ErrorCatalogArea> error_catalog_ =
      make_driver_error_catalog_area(*session_);
  const std::unique_ptr<PushArea> push_ = make_driver_push_area(hello_);
  const std::unique_ptr<CommandArea> commands_ = make_driver_command_area(hello_);
};

}  // namespace

std::unique_ptr<Candidate> make_driver_candidate(const std::string& command) {
  return std::make_unique<DriverCandidate>(command);
}

}  // namespace ssp::harness
