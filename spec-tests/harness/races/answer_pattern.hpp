// How a schedule's expected answer is compared with what a race produced
// (schedule.hpp's `expect` lines): word by word, where a word `?NAME`
// stands for a sequence number the source does not pin.
//
// SSP2 asks a partition's commitSeq to rise; it does not ask it to be 1 on a
// fresh partition, nor to be gap-free (docs/decisions.md, "Sources of
// requirement"). A race at MUST therefore writes `applied seq ?s` where the
// release's own schedules may write `applied seq 1`. What the MUST does pin is
// that a replay repeats the original: `cached seq ?s` after `applied seq ?s`
// must carry the same number. So a placeholder binds, at its first match, the
// number it met, and every later use of the same name in the permutation must
// meet that number again. Different names may meet the same number.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ssp::harness {

// The numbers a permutation's placeholders have met so far, by name.
using SeqBindings = std::map<std::string, std::string>;

// True when `word` is a placeholder: `?` followed by one or more letters,
// digits or underscores.
bool is_seq_placeholder(std::string_view word);

// Compares `seen` with `expected` and, on a match, records the placeholders'
// first bindings in `bindings`. A placeholder matches a positive decimal
// integer without a leading zero, the same one as before once bound. On a
// mismatch, `bindings` is left as it was and the answer is what a failure
// message adds to the two texts: empty where they simply differ, else why a
// placeholder did not match (naming the number it met before); on a match,
// nothing.
std::optional<std::string> answer_mismatch(std::string_view expected, std::string_view seen,
                                           SeqBindings& bindings);

}  // namespace ssp::harness
