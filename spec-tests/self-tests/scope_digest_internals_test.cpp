// The reference's own scope-digest pieces: the UTF-16 comparator its
// canonical text sorts with, and the report the ssp-segments scope-digest
// command prints (SD-R5). Conformance of the canonical text itself is asked
// of the candidate (spec-tests/download/s3_5_scope_digest_test.cpp).
#include <gtest/gtest.h>

#include "harness/catalog/spec.hpp"
#include "ssp/encoding/utf16_order.hpp"
#include "ssp/scopes/scope_digest.hpp"
#include "ssp/scopes/scope_map.hpp"
#include "ssp/scopes/parse_scope_map.hpp"

namespace ssp::harness {
namespace {

const std::string kPrivateUse = "\xee\x80\x80";  // U+E000
const std::string kGrinning = "\xf0\x9f\x98\x80";  // U+1F600

TEST(Utf16Order, UTF16_1_CompareUtf16OrdersByCodeUnits) {
  record_spec("§11.2", "UTF16-1");
  EXPECT_LT(compare_utf16(kGrinning, kPrivateUse), 0);
  EXPECT_GT(kGrinning, kPrivateUse);  // bytes: F0 > EE
  EXPECT_LT(compare_utf16("\xed\x9f\xbf", kGrinning), 0);        // U+D7FF < surrogates
  EXPECT_LT(compare_utf16(kGrinning, "\xef\xbf\xbf"), 0);        // < U+FFFF
  EXPECT_LT(compare_utf16("\xf0\x90\x80\x80", kGrinning), 0);    // U+10000 < U+1F600
  EXPECT_LT(compare_utf16("\xf4\x8f\xbf\xbf", kPrivateUse), 0);  // U+10FFFF < U+E000
  EXPECT_EQ(compare_utf16("same", "same"), 0);
  EXPECT_LT(compare_utf16("ab", "abc"), 0);
  EXPECT_GT(compare_utf16("b", "abc"), 0);
  EXPECT_LT(compare_utf16("", "a"), 0);
}

TEST(ScopeDigestReport, SD_R5_ScopeDigestCommandReportsCanonicalTextAndDigest) {
  record_spec("§3.5", "SD-R5");
  // The digest: python3 hashlib.sha256(b'{"a":["1"],"b":["x","y"]}').
  EXPECT_EQ(scope_digest_report_json(parse_scope_map(R"({"b":["y","x","x"],"a":["1"]})")),
            R"({"canonicalJson":"{\"a\":[\"1\"],\"b\":[\"x\",\"y\"]}",)"
            R"("scopeDigest":"d6eae071419983e790daed35ef4abff53d8db9edf7718ba8c9f196600c80d457"})");
}

}  // namespace
}  // namespace ssp::harness
