// SSP2 §2.4 row codec: the positional encoding with its null bitmap, round
// trips for every type and boundary, and every decode refusal (requirements
// RC-1 … RC-12 in docs/requirements/storage.md). Pure: no backend.
#include <gmock/gmock.h>

#include <cmath>
#include <limits>

#include "harness/spec.hpp"
#include "ssp/errors.hpp"
#include "ssp/storage/json_document.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::harness {
namespace {

using storage::Bytes;
using storage::ColumnLayout;
using storage::ColumnType;
using storage::decode_row;
using storage::encode_row;
using storage::Row;
using storage::RowDecodeError;
using storage::RowValue;
using ::testing::HasSubstr;

constexpr std::int64_t kMaxSafe = storage::kMaxSafeInteger;
const std::string kBlobRef = R"({"blobId":"sha256:)" + std::string(64, 'a') +
                             R"(","byteLength":12,"mediaType":"image/png","name":"a.png"})";

std::vector<ColumnLayout> one(ColumnType type, bool nullable = false) {
  return {{"c", type, nullable}};
}

Bytes hex(const std::string& text) {
  Bytes out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Decoding `payload` under `columns` fails naming `column` (and saying `what`).
void expect_refused(const std::vector<ColumnLayout>& columns, const Bytes& payload,
                    const std::string& column, const std::string& what) {
  try {
    decode_row(columns, payload);
    ADD_FAILURE() << "decoded, expected a refusal: " << what;
  } catch (const RowDecodeError& error) {
    EXPECT_EQ(error.column(), column);
    EXPECT_THAT(error.what(), HasSubstr(what));
    if (!column.empty()) {
      EXPECT_THAT(error.what(), HasSubstr("column \"" + column + "\""));
    }
  }
}

TEST(RowCodec, RC_1_EveryTypeRoundTripsWithTheSpecBytes) {
  record_spec("§2.4", "RC-1");
  const std::vector<ColumnLayout> columns = {
      {"s", ColumnType::string, false},   {"i", ColumnType::integer, false},
      {"f", ColumnType::floating, false}, {"b", ColumnType::boolean, false},
      {"j", ColumnType::json, false},     {"y", ColumnType::bytes, false},
      {"r", ColumnType::blob_ref, false}, {"c", ColumnType::crdt, false},
  };
  const Row row = {
      std::string("hé"), std::int64_t{-2}, 1.5,     true, std::string("{\"a\": [1, null]}"),
      Bytes{0, 255},     kBlobRef,         Bytes{7}};
  const Bytes encoded = encode_row(columns, row);
  Bytes expected =
      hex("00"
          "03000000"
          "68c3a9"
          "feffffffffffffff"
          "000000000000f83f"
          "01"
          "10000000");
  const std::string json = "{\"a\": [1, null]}";
  expected.insert(expected.end(), json.begin(), json.end());
  for (std::uint8_t byte : hex("02000000"
                               "00ff"))
    expected.push_back(byte);
  for (std::uint8_t byte : hex("8b000000")) expected.push_back(byte);  // kBlobRef is 139 bytes
  expected.insert(expected.end(), kBlobRef.begin(), kBlobRef.end());
  for (std::uint8_t byte : hex("01000000"
                               "07"))
    expected.push_back(byte);
  ASSERT_EQ(kBlobRef.size(), 0x8bu);
  EXPECT_EQ(encoded, expected);
  EXPECT_EQ(decode_row(columns, encoded), row);
}

TEST(RowCodec, RC_2_BoundariesRoundTrip) {
  record_spec("§2.4", "RC-2");
  const auto round_trip = [](const std::vector<ColumnLayout>& columns, const Row& row) {
    EXPECT_EQ(decode_row(columns, encode_row(columns, row)), row);
  };
  for (std::int64_t value : {kMaxSafe, -kMaxSafe, std::int64_t{0}, std::int64_t{-1}}) {
    round_trip(one(ColumnType::integer), {value});
  }
  EXPECT_EQ(encode_row(one(ColumnType::integer), {kMaxSafe}), hex("00"
                                                                  "ffffffffffff1f00"));
  for (double value :
       {0.0, -0.0, std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::min(),
        std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()}) {
    const Row decoded =
        decode_row(one(ColumnType::floating), encode_row(one(ColumnType::floating), {value}));
    EXPECT_EQ(std::bit_cast<std::uint64_t>(std::get<double>(decoded[0])),
              std::bit_cast<std::uint64_t>(value));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Row decoded_nan =
      decode_row(one(ColumnType::floating), encode_row(one(ColumnType::floating), {nan}));
  EXPECT_TRUE(std::isnan(std::get<double>(decoded_nan[0])));
  round_trip(one(ColumnType::string), {std::string()});
  round_trip(one(ColumnType::bytes), {Bytes{}});
  round_trip(one(ColumnType::crdt), {Bytes{}});
  round_trip(one(ColumnType::boolean), {false});
  for (const char* json : {"null", "7", "\"x\"", " [ ] ", "{\"\\ud800\":1e400}", "-0.5e-3"}) {
    round_trip(one(ColumnType::json), {std::string(json)});
  }
  // 8 columns fill one bitmap byte exactly; 9 need a second one.
  for (std::size_t count :
       {std::size_t{0}, std::size_t{1}, std::size_t{8}, std::size_t{9}, std::size_t{17}}) {
    std::vector<ColumnLayout> columns;
    Row all_null;
    for (std::size_t i = 0; i < count; ++i) {
      columns.push_back({"c" + std::to_string(i), ColumnType::string, true});
      all_null.emplace_back(std::monostate{});
    }
    const Bytes encoded = encode_row(columns, all_null);
    EXPECT_EQ(encoded.size(), (count + 7) / 8);
    if (count == 9) {
      EXPECT_EQ(encoded, hex("ff01"));
    }
    round_trip(columns, all_null);
  }
}

TEST(RowCodec, RC_3_NullBitOnNonNullableColumnIsRefused) {
  record_spec("§2.4", "RC-3");
  const std::vector<ColumnLayout> columns = {{"a", ColumnType::string, true},
                                             {"b", ColumnType::integer, false}};
  expect_refused(columns, hex("03"), "b", "null bit set on a non-nullable column");
  EXPECT_NO_THROW(decode_row(columns, hex("01"
                                          "0500000000000000")));
}

TEST(RowCodec, RC_4_SetPaddingBitIsRefused) {
  record_spec("§2.4", "RC-4");
  const std::vector<ColumnLayout> columns = {{"a", ColumnType::boolean, true}};
  for (const char* bitmap : {"02", "80", "fe"}) {
    expect_refused(columns, hex(std::string(bitmap) + "01"), "", "padding bit");
  }
  // Zero columns: the (empty) bitmap has no padding; any byte is trailing.
  EXPECT_EQ(decode_row({}, Bytes{}), Row{});
  expect_refused({}, hex("00"), "", "1 trailing bytes");
}

TEST(RowCodec, RC_5_TruncatedInputIsRefusedNamingTheColumn) {
  record_spec("§2.4", "RC-5");
  const std::vector<ColumnLayout> columns = {{"name", ColumnType::string, false},
                                             {"count", ColumnType::integer, false},
                                             {"data", ColumnType::bytes, false}};
  const Bytes full = encode_row(columns, {std::string("abc"), std::int64_t{5}, Bytes{1, 2, 3}});
  expect_refused(columns, Bytes{}, "", "null bitmap");
  expect_refused(columns, Bytes(full.begin(), full.begin() + 3), "name", "truncated input");
  expect_refused(columns, Bytes(full.begin(), full.begin() + 6), "name", "truncated input");
  expect_refused(columns, Bytes(full.begin(), full.begin() + 9), "count", "truncated input");
  expect_refused(columns, Bytes(full.begin(), full.end() - 1), "data", "truncated input");
  expect_refused(one(ColumnType::boolean), hex("00"), "c", "truncated input");
  expect_refused(one(ColumnType::floating),
                 hex("00"
                     "00000000"),
                 "c", "truncated input");
}

TEST(RowCodec, RC_6_TrailingBytesAreRefused) {
  record_spec("§2.4", "RC-6");
  Bytes payload = encode_row(one(ColumnType::string), {std::string("x")});
  payload.push_back(0);
  expect_refused(one(ColumnType::string), payload, "",
                 "1 trailing bytes after the last column (column \"c\")");
}

TEST(RowCodec, RC_7_InvalidUtf8IsRefused) {
  record_spec("§2.4", "RC-7");
  for (const char* bytes : {"c3", "c0af", "eda080", "f4908080", "ff"}) {
    Bytes text = hex(bytes);
    for (ColumnType type : {ColumnType::string, ColumnType::json, ColumnType::blob_ref}) {
      Bytes payload = {0, static_cast<std::uint8_t>(text.size()), 0, 0, 0};
      payload.insert(payload.end(), text.begin(), text.end());
      expect_refused(one(type), payload, "c", "not well-formed UTF-8");
    }
  }
}

TEST(RowCodec, RC_8_JsonValueThatIsNotJsonIsRefused) {
  record_spec("§2.4", "RC-8");
  for (const char* text :
       {"",           " ",   "{",        "[1,]", "{\"a\"}", "'x'",       "01",
        "1.",         ".5",  "tru",      "nul",  "\"\\x\"", "\"\\u12\"", "[1] [2]",
        "{\"a\":1,}", "NaN", "\"a\tb\"", "+1",   "1e",      "{1:2}"}) {
    const std::string value(text);
    Bytes payload = {0, static_cast<std::uint8_t>(value.size()), 0, 0, 0};
    payload.insert(payload.end(), value.begin(), value.end());
    expect_refused(one(ColumnType::json), payload, "c", "the json value is not JSON");
    EXPECT_FALSE(storage::is_json_document(value)) << value;
  }
}

TEST(RowCodec, RC_9_IntegerOutsideSafeRangeIsRefused) {
  record_spec("§2.4", "RC-9");
  expect_refused(one(ColumnType::integer),
                 hex("00"
                     "0000000000002000"),
                 "c", "outside ±(2^53−1)");
  expect_refused(one(ColumnType::integer),
                 hex("00"
                     "000000000000e0ff"),
                 "c", "outside ±(2^53−1)");
  expect_refused(one(ColumnType::integer),
                 hex("00"
                     "ffffffffffffff7f"),
                 "c", "outside ±(2^53−1)");
  EXPECT_NO_THROW(decode_row(one(ColumnType::integer), hex("00"
                                                           "010000000000e0ff")));  // −(2^53−1)
}

TEST(RowCodec, RC_10_BooleanByteOtherThanZeroOrOneIsRefused) {
  record_spec("§2.4", "RC-10");
  for (const char* byte : {"02", "ff", "80"}) {
    expect_refused(one(ColumnType::boolean), hex(std::string("00") + byte), "c", "neither 0 nor 1");
  }
}

TEST(RowCodec, RC_11_BlobRefMustBeCanonicalBlobRef) {
  record_spec("§5.9.1", "RC-11");
  const std::string id = "sha256:" + std::string(64, 'a');
  EXPECT_TRUE(storage::is_canonical_blob_ref(kBlobRef));
  EXPECT_TRUE(storage::is_canonical_blob_ref(R"({"blobId":")" + id + R"(","byteLength":0})"));
  EXPECT_TRUE(storage::is_canonical_blob_ref(
      R"({"blobId":")" + id + R"(","byteLength":9007199254740991,"name":"\"q\"\n"})"));
  for (const std::string& bad : std::vector<std::string>{
           R"({"byteLength":1,"blobId":")" + id + R"("})",    // key order
           R"({"blobId":")" + id + R"(", "byteLength":1})",   // whitespace
           R"({"blobId":")" + id + R"(","byteLength":-1})",   // negative
           R"({"blobId":")" + id + R"(","byteLength":1.0})",  // not an integer
           R"({"blobId":")" + id + R"(","byteLength":9007199254740992})",
           R"({"blobId":")" + id + R"(","byteLength":01})",
           R"({"blobId":")" + id + R"(","byteLength":1,"extra":1})",  // unknown key
           R"({"blobId":")" + id + R"(","byteLength":1,"name":1})",   // non-string name
           R"({"blobId":")" + id + R"(","byteLength":1,"name":"a","mediaType":"b"})",
           R"({"blobId":")" + id + R"(","byteLength":1,"name":"\u0041"})",  // non-canonical escape
           R"({"blobId":"sha256:)" + std::string(64, 'A') + R"(","byteLength":1})",
           std::string(R"({"blobId":"sha256:abc","byteLength":1})"),
           R"({"blobId":")" + id + R"("})",
           std::string("[]"),
       }) {
    EXPECT_FALSE(storage::is_canonical_blob_ref(bad)) << bad;
    Bytes payload = {0, static_cast<std::uint8_t>(bad.size()), 0, 0, 0};
    payload.insert(payload.end(), bad.begin(), bad.end());
    expect_refused(one(ColumnType::blob_ref), payload, "c", "not a canonical BlobRef");
  }
}

TEST(RowCodec, RC_12_EncodeRefusesValuesTheDecoderWouldRefuse) {
  record_spec("§2.4", "RC-12");
  const auto refused = [](const std::vector<ColumnLayout>& columns, const Row& row,
                          const std::string& what) {
    try {
      encode_row(columns, row);
      ADD_FAILURE() << "encoded, expected: " << what;
    } catch (const InvalidArgument& error) {
      EXPECT_THAT(error.what(), HasSubstr(what));
      EXPECT_THAT(error.what(), HasSubstr("column \"c\""));
    }
  };
  refused(one(ColumnType::string), {RowValue{std::monostate{}}}, "NULL in a non-nullable column");
  refused(one(ColumnType::integer), {kMaxSafe + 1}, "outside");
  refused(one(ColumnType::integer), {std::string("1")}, "does not fit type integer");
  refused(one(ColumnType::string), {std::string("\xff")}, "UTF-8");
  refused(one(ColumnType::json), {std::string("{")}, "not JSON");
  refused(one(ColumnType::blob_ref), {std::string("{}")}, "BlobRef");
  refused(one(ColumnType::boolean), {std::int64_t{1}}, "does not fit type boolean");
  EXPECT_THROW(encode_row(one(ColumnType::string), {}), InvalidArgument);
}

}  // namespace
}  // namespace ssp::harness
