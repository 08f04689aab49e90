// The reference's rules as candidate areas: each call goes straight to the
// pure function in reference/src/core (or the reference's download decision
// and signer), in process.
#pragma once

#include "harness/areas/command_area.hpp"
#include "harness/areas/download_area.hpp"
#include "harness/areas/error_catalog_area.hpp"
#include "harness/areas/push_area.hpp"
#include "harness/areas/row_area.hpp"
#include "harness/areas/schema_area.hpp"
#include "harness/areas/scope_area.hpp"
#include "harness/areas/signed_url_area.hpp"

namespace ssp::harness {

ScopeArea& reference_scope_area();
RowArea& reference_row_area();
SchemaArea& reference_schema_area();
DownloadArea& reference_download_area();
SignedUrlArea& reference_signed_url_area();
ErrorCatalogArea& reference_error_catalog_area();
PushArea& reference_push_area();
CommandArea& reference_command_area();

}  // namespace ssp::harness
