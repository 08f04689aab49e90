// The publication-key golden strings (design notes §1.5, DECISION D13):
// fixtures/known-answers/publication_keys.json, written by Node.js
// JSON.stringify (fixtures/known-answers/generate.js), read into contexts.
#pragma once

#include <string>
#include <vector>

#include "ssp/segment_types.hpp"

namespace ssp::harness {

struct PublicationKeyVector {
  std::string name;
  SegmentMetadata context;
  std::string pub_key;  // what upstream stores for `context`
};

// Every vector of the file. Throws when the file is missing or malformed.
std::vector<PublicationKeyVector> publication_key_vectors();

}  // namespace ssp::harness
