// A test that calls one of the reference's rules: it must not build, because
// test code is compiled against the vocabulary and the driver protocol alone
// (CTest entry rule-call-fails-to-build, docs/decisions.md "The vocabulary").
// The vocabulary's header on the first line is found, the rule's on the second
// is not; the entry passes only on that error, so the probe failing for any
// other reason fails it.
#include "ssp/storage/row.hpp"
#include "ssp/storage/row_codec.hpp"

int main() {
  const ssp::storage::Row row{std::int64_t{1}};
  return ssp::storage::encode_row({}, row).empty() ? 0 : 1;
}
