// The driver protocol's value encodings (docs/driver-protocol.md, "Values")
// carry every value exactly, and reading an answer is strict: a missing or
// mistyped field is named, never defaulted.
#include <gmock/gmock.h>

#include <cmath>
#include <limits>

#include "harness/catalog/spec.hpp"
#include "ssp/encoding/base64.hpp"
#include "wire/segment_json.hpp"
#include "wire/wire_json.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::HasSubstr;
using wire::Json;

// What the other end reads after the value crossed one line.
Json across(const Json& value) {
  return wire::parse_line(wire::dump_line(Json{{"v", value}})).at("v");
}

std::string wire_error(const std::function<void()>& read) {
  try {
    read();
  } catch (const wire::WireError& error) {
    return error.what();
  }
  return "(no WireError)";
}

TEST(DriverWire, HARNESS_19_BytesAreCanonicalPaddedBase64) {
  harness::record_spec("Driver", "HARNESS-19");
  // RFC 4648 §10 test vectors.
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [text, encoded] : vectors) {
    const Bytes bytes(text.begin(), text.end());
    EXPECT_EQ(base64_encode(bytes), encoded);
    EXPECT_EQ(base64_decode(encoded), bytes) << encoded;
  }
  EXPECT_EQ(base64_encode(Bytes{0xfb, 0xff}), "+/8=");
  for (const char* bad : {"Zg", "Zg=", "Zh==", "Zm9v=", "Zg==Zg==", "-_8=", "Z g=", "===="}) {
    EXPECT_FALSE(base64_decode(bad)) << bad;
  }
}

TEST(DriverWire, HARNESS_19_TextThatIsNotUtf8TravelsRaw) {
  harness::record_spec("Driver", "HARNESS-19");
  const std::string broken = "a\xc3\x28z";
  const std::string line = wire::dump_line(Json{{"t", broken}, {"ok", "\xc3\xa9\n"}});
  EXPECT_EQ(line, R"({"t":{"$raw":"YcMoeg=="},"ok":"é\n"})");
  const Json back = wire::parse_line(line);
  EXPECT_EQ(back.at("t").get<std::string>(), broken);
  EXPECT_EQ(back.at("ok").get<std::string>(), "\xc3\xa9\n");
  EXPECT_THAT(wire_error([] { wire::parse_line(R"({"t":{"$raw":"%%"}})"); }),
              HasSubstr(".t.$raw: expected base64 text"));
  EXPECT_THAT(wire_error([] { wire::parse_line("[1]"); }), HasSubstr("expected a JSON object"));
  EXPECT_THAT(wire_error([] { wire::parse_line("{\"a\":"); }), HasSubstr("not a JSON line"));
}

TEST(DriverWire, HARNESS_19_RowValuesKeepTheirKind) {
  harness::record_spec("Driver", "HARNESS-19");
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const storage::Row row = {std::monostate{}, std::string("{\"a\": 1}"),
                            std::int64_t{9'007'199'254'740'993}, std::int64_t{-1}, 1.0, -0.0,
                            kInf, -kInf, 5e-324, true, Bytes{0, 255}, Bytes{}};
  const Json json = across(wire::row_to_json(row));
  EXPECT_EQ(wire::dump_line(json),
            R"([null,"{\"a\": 1}",9007199254740993,-1,1.0,-0.0,{"$float":"Infinity"},)"
            R"({"$float":"-Infinity"},5e-324,true,{"$bytes":"AP8="},{"$bytes":""}])");
  const storage::Row back = wire::row_from_json(json, "values");
  EXPECT_EQ(back, row);
  EXPECT_TRUE(std::signbit(std::get<double>(back[5])));
  const storage::Row nan = wire::row_from_json(
      across(wire::row_to_json({std::numeric_limits<double>::quiet_NaN()})), "values");
  EXPECT_TRUE(std::isnan(std::get<double>(nan.at(0))));
  EXPECT_THAT(wire_error([] { wire::row_from_json(Json::parse(R"([{"$float":"nan"}])"), "v"); }),
              HasSubstr("v[0].$float"));
  EXPECT_THAT(wire_error([] { wire::row_from_json(Json::parse(R"([[1]])"), "v"); }),
              HasSubstr("v[0]: not a row value"));
}

TEST(DriverWire, HARNESS_19_RecordsRoundTripAndMissingFieldsAreNamed) {
  harness::record_spec("Driver", "HARNESS-19");
  SegmentMetadata m{"p", "epoch-1", "tasks", 1, MediaType::rows, "d", 42, 5, "c1", std::nullopt};
  const SegmentPublication publication{m, 3, 10, 20};
  const SegmentRecord record{"sha256:ab", m, {"d", "e"}, {publication, publication}, 3, 10, 20};
  EXPECT_EQ(wire::record_from_json(across(wire::record_to_json(record)), "r"), record);
  EXPECT_EQ(wire::stats_from_json(across(wire::stats_to_json({1, 2, 3, 4})), "s"),
            (SegmentStoreStats{1, 2, 3, 4}));
  const SegmentFindKey key = find_key_of(m);
  EXPECT_EQ(wire::find_key_from_json(across(wire::find_key_to_json(key)), "k"), key);

  Json missing = wire::record_to_json(record);
  missing["publications"][1].erase("expiresAtMs");
  EXPECT_THAT(wire_error([&] { wire::record_from_json(missing, "result.record"); }),
              HasSubstr("result.record.publications[1].expiresAtMs: missing"));
  Json mistyped = wire::record_to_json(record);
  mistyped["byteLength"] = "3";
  EXPECT_THAT(wire_error([&] { wire::record_from_json(mistyped, "r"); }),
              HasSubstr("r.byteLength: expected an integer, got string"));
  mistyped = wire::record_to_json(record);
  mistyped["mediaType"] = "image";
  EXPECT_THAT(wire_error([&] { wire::record_from_json(mistyped, "r"); }),
              HasSubstr("r.mediaType: expected \"rows\" or \"sqlite\""));
}

}  // namespace
}  // namespace ssp::driver_tests
