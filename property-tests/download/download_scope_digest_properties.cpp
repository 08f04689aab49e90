// §3.5/§11.2 properties over random text drawn from every Unicode plane:
//  - the scope digest is a function of the scope set: permuting keys or
//    values, or repeating values, never changes it; different sets never
//    share a canonical text;
//  - the canonical text orders two keys, and two values, as comparing their
//    transcodings to std::u16string does (code units, not bytes).
// Every answer comes from the candidate's scope area.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "harness/catalog/spec.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/scopes/scope_map.hpp"

namespace ssp::harness {
namespace {

// A code point from one of the ranges that matter for ordering: ASCII, control
// characters, 2- and 3-byte BMP text below the surrogates, the private-use and
// specials block U+E000–U+FFFF, and the supplementary planes.
rc::Gen<char32_t> code_point() {
  return rc::gen::oneOf(rc::gen::inRange<char32_t>(0x00, 0x20),
                        rc::gen::inRange<char32_t>(0x20, 0x80),
                        rc::gen::inRange<char32_t>(0x80, 0x800),
                        rc::gen::inRange<char32_t>(0x800, 0xd800),
                        rc::gen::inRange<char32_t>(0xe000, 0x10000),
                        rc::gen::inRange<char32_t>(0x10000, 0x110000));
}

std::string to_utf8(const std::u32string& text) {
  std::string out;
  for (char32_t c : text) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xe0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    } else {
      out.push_back(static_cast<char>(0xf0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    }
  }
  return out;
}

std::u16string to_utf16(const std::u32string& text) {
  std::u16string out;
  for (char32_t c : text) {
    if (c < 0x10000) {
      out.push_back(static_cast<char16_t>(c));
    } else {
      out.push_back(static_cast<char16_t>(0xd800 + ((c - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xdc00 + ((c - 0x10000) & 0x3ff)));
    }
  }
  return out;
}

// The code points of well-formed UTF-8 `text` (the canonical text read back).
std::u32string from_utf8(const std::string& text) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const int length = byte < 0x80 ? 1 : byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : 4;
    char32_t c = length == 1 ? byte : byte & (0x3f >> (length - 1));
    for (int k = 1; k < length && i + k < text.size(); ++k) {
      c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    }
    out.push_back(c);
    i += length;
  }
  return out;
}

// Whether UTF-8 `a` sorts before `b` by UTF-16 code units, by transcoding.
bool utf16_before(const std::string& a, const std::string& b) {
  return to_utf16(from_utf8(a)) < to_utf16(from_utf8(b));
}

ScopeArea& scope() { return current_candidate().scope(); }

rc::Gen<std::u32string> text() {
  return rc::gen::container<std::u32string>(rc::gen::resize(6, code_point()));
}

// A random permutation of `items` (Fisher–Yates with generated, shrinkable picks).
std::vector<std::string> permuted(std::vector<std::string> items) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::swap(items[i - 1], items[*rc::gen::inRange<std::size_t>(0, i)]);
  }
  return items;
}

// A small scope map of random UTF-8 keys and values.
ScopeMap random_scopes() {
  ScopeMap scopes;
  const int keys = *rc::gen::inRange(0, 4);
  for (int k = 0; k < keys; ++k) {
    auto& values = scopes[to_utf8(*text())];
    const int count = *rc::gen::inRange(0, 4);
    for (int v = 0; v < count; ++v) values.push_back(to_utf8(*text()));
  }
  return scopes;
}

TEST(ScopeDigestProperties, SD_R3_CanonicalOrderAgreesWithTranscodedComparison) {
  record_spec("§11.2", "SD-R3");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  EXPECT_TRUE(rc::check("two keys and two values come out in u16string order", [] {
    const std::u32string a = *text();
    // Often share a prefix, so the first difference lands anywhere.
    const std::u32string b = *rc::gen::element(a + *text(), a.substr(0, a.size() / 2) + *text(),
                                               *text());
    RC_PRE(a != b);
    const std::string first = to_utf8(to_utf16(a) < to_utf16(b) ? a : b);
    const std::string second = to_utf8(to_utf16(a) < to_utf16(b) ? b : a);
    // Read back with nlohmann, so escapes do not matter.
    const auto keys = nlohmann::ordered_json::parse(
        scope().digest({{to_utf8(a), {}}, {to_utf8(b), {}}}).canonical_json);
    RC_ASSERT(keys.size() == 2u);
    RC_ASSERT(keys.begin().key() == first);
    RC_ASSERT(std::next(keys.begin()).key() == second);
    const auto values = nlohmann::json::parse(
        scope().digest({{"k", {to_utf8(a), to_utf8(b)}}}).canonical_json);
    RC_ASSERT(values.at("k") == nlohmann::json::array({first, second}));
  }));
}

TEST(ScopeDigestProperties, SD_R2_DigestIsAFunctionOfTheScopeSet) {
  record_spec("§3.5", "SD-R2");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  EXPECT_TRUE(rc::check("permuting, repeating or re-serializing never changes the digest", [] {
    const ScopeMap scopes = random_scopes();
    // The same set as JSON text with keys shuffled, values shuffled and some
    // repeated; nlohmann writes it, so no project code builds the input.
    std::vector<std::string> keys;
    for (const auto& [key, values] : scopes) keys.push_back(key);
    keys = permuted(keys);
    nlohmann::ordered_json shuffled = nlohmann::ordered_json::object();
    for (const auto& key : keys) {
      std::vector<std::string> values = scopes.at(key);
      for (const auto& value : scopes.at(key)) {
        if (*rc::gen::arbitrary<bool>()) values.push_back(value);
      }
      shuffled[key] = permuted(values);
    }
    const ScopeMap reparsed = scope().parse(shuffled.dump());
    const ScopeDigestAnswer expected = scope().digest(scopes);
    const ScopeDigestAnswer answer = scope().digest(reparsed);
    RC_ASSERT(answer.scope_digest == expected.scope_digest);
    RC_ASSERT(answer.canonical_json == expected.canonical_json);
  }));
}

TEST(ScopeDigestProperties, SD_R2_CanonicalTextIsSortedUniqueAndSeparatesDifferentSets) {
  record_spec("§3.5", "SD-R2");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  EXPECT_TRUE(rc::check("canonical JSON reads back as the sorted set", [] {
    const ScopeMap a = random_scopes();
    const ScopeMap b = *rc::gen::element(a, random_scopes());
    const auto as_sets = [](const ScopeMap& m) {
      std::map<std::string, std::set<std::string>> sets;
      for (const auto& [key, values] : m) sets[key] = {values.begin(), values.end()};
      return sets;
    };
    // Read back with an independent parser: keys and values in UTF-16 order, unique.
    const std::string canonical_a = scope().digest(a).canonical_json;
    const auto parsed = nlohmann::ordered_json::parse(canonical_a);
    std::string previous_key;
    bool first_key = true;
    for (const auto& [key, values] : parsed.items()) {
      RC_ASSERT(first_key || utf16_before(previous_key, key));
      first_key = false;
      previous_key = key;
      for (std::size_t i = 1; i < values.size(); ++i) {
        RC_ASSERT(utf16_before(values[i - 1].get<std::string>(), values[i].get<std::string>()));
      }
    }
    RC_ASSERT(as_sets(scope().parse(canonical_a)) == as_sets(a));
    RC_ASSERT((canonical_a == scope().digest(b).canonical_json) == (as_sets(a) == as_sets(b)));
  }));
}

}  // namespace
}  // namespace ssp::harness
