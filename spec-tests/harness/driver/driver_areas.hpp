// The candidate areas over a driver's scope.*, rows.*, schema.*, download.*,
// signed_url.* and error_catalog.* methods (docs/driver-protocol.md). Each
// decodes the answer strictly: a missing or mistyped field is a DriverError
// naming the method, an error answer is raised as its exception type.
#pragma once

#include <memory>

#include "harness/areas/command_area.hpp"
#include "harness/areas/download_area.hpp"
#include "harness/areas/error_catalog_area.hpp"
#include "harness/areas/push_area.hpp"
#include "harness/areas/row_area.hpp"
#include "harness/areas/schema_area.hpp"
#include "harness/areas/scope_area.hpp"
#include "harness/areas/signed_url_area.hpp"
#include "harness/driver/driver_hello.hpp"
#include "harness/driver/driver_process.hpp"

namespace ssp::harness {

// Areas that need no store call `session` (the candidate's hello process),
// which must outlive them.
std::unique_ptr<ScopeArea> make_driver_scope_area(DriverProcess& session);
std::unique_ptr<RowArea> make_driver_row_area(DriverProcess& session);
std::unique_ptr<SchemaArea> make_driver_schema_area(DriverProcess& session);
std::unique_ptr<ErrorCatalogArea> make_driver_error_catalog_area(DriverProcess& session);
// signed_url.verify goes to the process of the store it reads; the other
// methods to `session`.
std::unique_ptr<SignedUrlArea> make_driver_signed_url_area(DriverProcess& session);
// download.authorize goes to the process of the store it reads.
std::unique_ptr<DownloadArea> make_driver_download_area();
// push.run goes to the process of the storage it pushes to, which must be one
// the driver opened (else HarnessError). A hook is refused as a HarnessError
// unless `hello` advertised pushHooks. The schema travels as `hello` says
// (push/push_schema_param.hpp).
std::unique_ptr<PushArea> make_driver_push_area(const DriverHello& hello);

// command.run goes, like push.run, to the process of the storage; the
// declared command travels as data (wire/declared_command.hpp). A hook, a
// validator or a notifier is refused as a HarnessError unless `hello`
// advertised pushHooks, or commandCallbacks.
std::unique_ptr<CommandArea> make_driver_command_area(const DriverHello& hello);

}  // namespace ssp::harness
