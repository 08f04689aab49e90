// SSP2 §2.4 row codec, asked of the candidate's row area: the positional
// encoding with its null bitmap, round trips for every type and boundary, and
// every decode refusal (requirements RC-1 … RC-12 in
// docs/requirements/storage.md). The refusal table is
// fixtures/cases/rows/decode_cases.json (payloads built by python3 from the
// §2.4 layout, generate_decode_cases.py). Pure: no backend.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <variant>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/row.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::harness {
namespace {

using storage::Bytes;
using storage::ColumnLayout;
using storage::ColumnType;
using storage::Row;
using storage::RowDecodeError;
using storage::RowValue;
using ::testing::HasSubstr;

constexpr std::int64_t kMaxSafe = 9007199254740991;  // 2^53 − 1 (§0)
const std::string kBlobRef = R"({"blobId":"sha256:)" + std::string(64, 'a') +
                             R"(","byteLength":12,"mediaType":"image/png","name":"a.png"})";
// A column name no refusal wording contains by chance.
const std::string kColumn = "value_col";

std::vector<ColumnLayout> one(ColumnType type, bool nullable = false) {
  return {{kColumn, type, nullable}};
}

Bytes hex(const std::string& text) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// The §2.4 type names, as the layouts text spells them.
ColumnType type_named(const std::string& name) {
  static const std::map<std::string, ColumnType> types = {
      {"string", ColumnType::string},   {"integer", ColumnType::integer},
      {"float", ColumnType::floating},  {"boolean", ColumnType::boolean},
      {"json", ColumnType::json},       {"bytes", ColumnType::bytes},
      {"blob_ref", ColumnType::blob_ref}, {"crdt", ColumnType::crdt}};
  return types.at(name);
}

std::vector<ColumnLayout> columns_of(const nlohmann::json& columns) {
  std::vector<ColumnLayout> out;
  for (const auto& c : columns) {
    out.push_back({c.at("name").get<std::string>(), type_named(c.at("type").get<std::string>()),
                   c.at("nullable").get<bool>()});
  }
  return out;
}

// Values the encoder must refuse, as the decoder would refuse their bytes
// (RC-12, RC-12-REF; RC-REF checks that each refusal names the column).
struct EncodeRefusal {
  std::vector<ColumnLayout> columns;
  Row row;
  std::string what;
};

// What upstream's encodeRow refuses: a value its column's type cannot hold
// (RC-12).
std::vector<EncodeRefusal> kind_refusals() {
  return {
      {one(ColumnType::string), {RowValue{std::monostate{}}}, "NULL in a non-nullable column"},
      {one(ColumnType::integer), {kMaxSafe + 1}, "outside"},
      {one(ColumnType::integer), {std::string("1")}, "does not fit type integer"},
      {one(ColumnType::boolean), {std::int64_t{1}}, "does not fit type boolean"},
  };
}

// Text whose content the decoder refuses, which upstream's encodeRow writes
// unchecked (RC-12-REF).
std::vector<EncodeRefusal> content_refusals() {
  return {
      {one(ColumnType::string), {std::string("\xff")}, "UTF-8"},
      {one(ColumnType::json), {std::string("{")}, "not JSON"},
      {one(ColumnType::blob_ref), {std::string("{}")}, "BlobRef"},
  };
}

std::vector<EncodeRefusal> encode_refusals() {
  std::vector<EncodeRefusal> all = kind_refusals();
  for (EncodeRefusal& refusal : content_refusals()) all.push_back(std::move(refusal));
  return all;
}

class RowCodec : public ::testing::Test {
 protected:
  void SetUp() override { SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::rows); }
  RowArea& rows() { return current_candidate().rows(); }

  // Every refused case of `requirement` is refused, and every accepted one
  // decodes. With `names_the_column` the refusal must also name the column it
  // stopped at: our error messages (RC-REF), not SSP2's, which names none.
  void expect_table(const std::string& requirement, bool names_the_column = false) {
    const auto cases = nlohmann::json::parse(read_fixture("cases/rows/decode_cases.json"));
    const auto& refused = cases.at("refused").at(requirement);
    ASSERT_FALSE(refused.empty());
    for (const auto& c : refused) {
      SCOPED_TRACE(c.at("name").get<std::string>());
      const std::string column = c.at("column").get<std::string>();
      try {
        rows().decode(columns_of(c.at("columns")), hex(c.at("payload_hex").get<std::string>()));
        ADD_FAILURE() << "decoded, expected a refusal";
      } catch (const RowDecodeError& error) {
        if (names_the_column) {
          EXPECT_EQ(error.column(), column);
          if (!column.empty()) {
            EXPECT_THAT(error.what(), HasSubstr(column));
          }
        }
      }
    }
    if (!cases.at("accepted").contains(requirement)) return;
    for (const auto& c : cases.at("accepted").at(requirement)) {
      SCOPED_TRACE(c.at("name").get<std::string>());
      EXPECT_NO_THROW(
          rows().decode(columns_of(c.at("columns")), hex(c.at("payload_hex").get<std::string>())));
    }
  }
};

TEST_F(RowCodec, RC_1_EveryTypeRoundTripsWithTheSpecBytes) {
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
  const Bytes encoded = rows().encode(columns, row);
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
  EXPECT_EQ(rows().decode(columns, encoded), row);
}

TEST_F(RowCodec, RC_2_BoundariesRoundTrip) {
  record_spec("§2.4", "RC-2");
  const auto round_trip = [this](const std::vector<ColumnLayout>& columns, const Row& row) {
    EXPECT_EQ(rows().decode(columns, rows().encode(columns, row)), row);
  };
  for (std::int64_t value : {kMaxSafe, -kMaxSafe, std::int64_t{0}, std::int64_t{-1}}) {
    round_trip(one(ColumnType::integer), {value});
  }
  EXPECT_EQ(rows().encode(one(ColumnType::integer), {kMaxSafe}), hex("00"
                                                                  "ffffffffffff1f00"));
  for (double value :
       {0.0, -0.0, std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::min(),
        std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()}) {
    const Row decoded =
        rows().decode(one(ColumnType::floating), rows().encode(one(ColumnType::floating), {value}));
    ASSERT_EQ(decoded.size(), 1u);
    ASSERT_TRUE(std::holds_alternative<double>(decoded[0]));
    EXPECT_EQ(std::bit_cast<std::uint64_t>(std::get<double>(decoded[0])),
              std::bit_cast<std::uint64_t>(value));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Row decoded_nan =
      rows().decode(one(ColumnType::floating), rows().encode(one(ColumnType::floating), {nan}));
  ASSERT_EQ(decoded_nan.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<double>(decoded_nan[0]));
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
    const Bytes encoded = rows().encode(columns, all_null);
    EXPECT_EQ(encoded.size(), (count + 7) / 8);
    if (count == 9) {
      EXPECT_EQ(encoded, hex("ff01"));
    }
    round_trip(columns, all_null);
  }
}

TEST_F(RowCodec, RC_3_NullBitOnNonNullableColumnIsRefused) {
  record_spec("§2.4", "RC-3");
  expect_table("RC-3");
}

TEST_F(RowCodec, RC_4_SetPaddingBitIsRefused) {
  record_spec("§2.4", "RC-4");
  expect_table("RC-4");
}

TEST_F(RowCodec, RC_5_TruncatedInputIsRefusedNamingTheColumn) {
  record_spec("§2.4", "RC-5");
  expect_table("RC-5");
}

TEST_F(RowCodec, RC_6_TrailingBytesAreRefused) {
  record_spec("§2.4", "RC-6");
  expect_table("RC-6");
}

TEST_F(RowCodec, RC_7_InvalidUtf8IsRefused) {
  record_spec("§2.4", "RC-7");
  expect_table("RC-7");
}

TEST_F(RowCodec, RC_8_JsonValueThatIsNotJsonIsRefused) {
  record_spec("§2.4", "RC-8");
  expect_table("RC-8");
}

TEST_F(RowCodec, RC_9_IntegerOutsideSafeRangeIsRefused) {
  record_spec("§2.4", "RC-9");
  expect_table("RC-9");
}

TEST_F(RowCodec, RC_10_BooleanByteOtherThanZeroOrOneIsRefused) {
  record_spec("§2.4", "RC-10");
  expect_table("RC-10");
}

TEST_F(RowCodec, RC_11_BlobRefMustBeCanonicalBlobRef) {
  record_spec("§5.9.1", "RC-11");
  expect_table("RC-11");
}

// Our reading of "canonical" (§5.9.1): the canonical text, not only the shape
// §5.9.1 lists as decode errors. Upstream decodes these.
TEST_F(RowCodec, RC_11_REF_BlobRefTextMustBeTheCanonicalText) {
  record_spec("§5.9.1", "RC-11-REF");
  expect_table("RC-11-REF");
}

TEST_F(RowCodec, RC_12_EncodeRefusesValuesTheDecoderWouldRefuse) {
  record_spec("§2.4", "RC-12");
  for (const EncodeRefusal& refusal : kind_refusals()) {
    SCOPED_TRACE(refusal.what);
    EXPECT_THROW(rows().encode(refusal.columns, refusal.row), InvalidArgument);
  }
  EXPECT_THROW(rows().encode(one(ColumnType::string), {}), InvalidArgument);
}

// Our error messages (docs/decisions.md), not SSP2's: §2.4 and §5.9.1 make each
// of these a decode error and name no column; the reference names the column
// it stopped at, on decode and on encode.
// Ours: the encoder checks content as the decoder does. Upstream's encodeRow
// checks kinds only, and its decoder refuses these bytes afterwards.
TEST_F(RowCodec, RC_12_REF_EncodeRefusesContentTheDecoderWouldRefuse) {
  record_spec("§2.4", "RC-12-REF");
  for (const EncodeRefusal& refusal : content_refusals()) {
    SCOPED_TRACE(refusal.what);
    EXPECT_THROW(rows().encode(refusal.columns, refusal.row), InvalidArgument);
  }
}

TEST_F(RowCodec, RC_REF_DecodeAndEncodeRefusalsNameTheColumn) {
  record_spec("§2.4, §5.9.1", "RC-REF");
  for (const char* requirement :
       {"RC-3", "RC-4", "RC-5", "RC-6", "RC-7", "RC-8", "RC-9", "RC-10", "RC-11", "RC-11-REF"}) {
    SCOPED_TRACE(requirement);
    expect_table(requirement, true);
  }
  for (const EncodeRefusal& refusal : encode_refusals()) {
    SCOPED_TRACE(refusal.what);
    try {
      rows().encode(refusal.columns, refusal.row);
      ADD_FAILURE() << "encoded, expected a refusal";
    } catch (const InvalidArgument& error) {
      EXPECT_THAT(error.what(), HasSubstr(kColumn));
    }
  }
}

}  // namespace
}  // namespace ssp::harness
