// The two JSON checks the row codec makes at decode (SSP2 §2.4, §5.9.1).
#pragma once

#include <string_view>

namespace ssp::storage {

// True iff `text` is one RFC 8259 JSON document (any value, scalars included,
// surrounding whitespace allowed). `text` must already be well-formed UTF-8.
// Checks the grammar only; nesting depth is unbounded (no recursion).
bool is_json_document(std::string_view text);

// True iff `text` is a canonical BlobRef (§5.9.1): an object with exactly the
// keys blobId ("sha256:" + 64 lowercase hex), byteLength (integer 0…2^53−1),
// then optionally mediaType and name (strings), in that order, with no
// insignificant whitespace and strings escaped as JSON.stringify escapes them.
bool is_canonical_blob_ref(std::string_view text);

}  // namespace ssp::storage
