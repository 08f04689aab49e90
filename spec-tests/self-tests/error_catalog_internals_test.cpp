// The reference's error plumbing (SSP2 §10.1, §10.3): the error body it
// writes, and its refusal to build an entry or an error for a code outside
// the catalog. What a candidate lists is asked in s10_error_catalog_test.cpp.
#include <gtest/gtest.h>

#include "harness/catalog/spec.hpp"
#include "ssp/errors/error_catalog.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

TEST(ErrorCatalogReference, EC_R5_ErrorBodyHasTheSection10_1Shape) {
  record_spec("§10.1", "EC-R5");
  const ProtocolError error =
      protocol_error(error_code::segment_expired, "segment \"x\" expired\n");
  EXPECT_EQ(error.code(), "sync.segment_expired");
  EXPECT_EQ(error_body_json(error),
            R"({"code":"sync.segment_expired","category":"not-found","retryable":true,)"
            R"("recommendedAction":"retryLater","message":"segment \"x\" expired\n"})");
}

TEST(ErrorCatalogReference, EC_R6_CodesOutsideTheCatalogAreRefused) {
  record_spec("§10.3", "EC-R6");
  for (const char* code : {"sync.integrity_rejected", "sync.unsupported_operation",
                           "sync.auth_lease_invalid", "sync.offline", "sync.internal_error",
                           "host.custom", ""}) {
    SCOPED_TRACE(code);
    EXPECT_THROW(error_entry(code), InvalidArgument);
    EXPECT_THROW(protocol_error(code, "x"), InvalidArgument);
  }
}

}  // namespace
}  // namespace ssp::harness
