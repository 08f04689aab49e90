// The reference's base64url codec (ssp/encoding/base64url.hpp), which its signed-URL
// tokens are built with (§5.4). Another implementation is judged by its
// tokens (SignedUrl.SU_R1 golden token, SU_R7 padded and non-canonical
// parts), not by this function.
#include <gtest/gtest.h>

#include <span>
#include <string_view>

#include "harness/catalog/spec.hpp"
#include "ssp/encoding/base64url.hpp"

namespace ssp::harness {
namespace {

TEST(Base64url, SU_R11_EncodingIsUnpaddedAndDecodingAcceptsOnlyTheCanonicalForm) {
  record_spec("§5.4", "SU-R11");
  const auto encode = [](std::string_view text) {
    return base64url_encode(
        std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  };
  EXPECT_EQ(encode(""), "");
  EXPECT_EQ(encode("f"), "Zg");
  EXPECT_EQ(encode("fo"), "Zm8");
  EXPECT_EQ(encode("foo"), "Zm9v");
  EXPECT_EQ(base64url_encode(Bytes{0xfb, 0xff}), "-_8");
  EXPECT_EQ(base64url_decode("-_8"), (Bytes{0xfb, 0xff}));
  EXPECT_EQ(base64url_decode("Zm9v"), (Bytes{'f', 'o', 'o'}));
  EXPECT_EQ(base64url_decode(""), Bytes{});
  for (const char* bad : {"Zg==", "Zh", "Z", "+/8", "Zm9v\n", "Zm 9v", "Zm9v="}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(base64url_decode(bad));
  }
}

}  // namespace
}  // namespace ssp::harness
