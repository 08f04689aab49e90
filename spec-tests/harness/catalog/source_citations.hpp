// The sources a conformance row's level cell names, checked against the
// indexes scripts/spec-keywords generates from SPEC.md and the release diff
// (TRACE-11), and checks are in step with them: docs/spec-keywords.md (SSP2's
// keyword occurrences per section, the diff's files and hunks) and
// docs/spec-sentences.md (SSP2's sentences per section, each with a hash of its
// words). They are committed so that a clean clone, which has neither source
// beside it, checks the citations too.
#pragma once

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/catalog/catalog.hpp"

namespace ssp::harness {

struct SpecKeywordIndex {
  // (section, keyword, occurrence): ("§6.4", "MUST", 2) is the second bare
  // MUST of §6.4; MUST NOT and SHOULD NOT are keywords of their own.
  std::set<std::tuple<std::string, std::string, int>> occurrences;
  // A file of the release diff by its base name → how many hunks it has.
  std::map<std::string, int> diff_hunks;
  // The upstream files a row may cite ("package/src/push.ts", "core/src/…"),
  // from docs/requirements/upstream-files.md (parse_upstream_manifest).
  std::set<std::string> upstream_files;
  // (section, sentence) → the first 8 hex digits of the SHA-256 of its words:
  // ("§11.2", 1) is §11.2's first sentence (parse_spec_sentence_index).
  std::map<std::pair<std::string, int>, std::string> sentences;
};

// The index's two tables, read from the text of docs/spec-keywords.md.
// Throws std::runtime_error naming the row when a cell is not what the
// generator writes.
SpecKeywordIndex parse_spec_keyword_index(const std::string& markdown);

// The sentence table of docs/spec-sentences.md, from its text. Throws
// std::runtime_error naming the row when a cell is not what the generator
// writes.
std::map<std::pair<std::string, int>, std::string> parse_spec_sentence_index(
    const std::string& markdown);

// The paths the manifest docs/requirements/upstream-files.md lists, from its
// text (scripts/upstream-files writes it from a checkout of upstream).
std::set<std::string> parse_upstream_manifest(const std::string& markdown);

// What is wrong with the sources of the conformance rows (empty when
// nothing):
//  - a MUST or SHOULD row that cites no keyword occurrence, cites one that is
//    not written "§6.4 MUST#2", or one the index does not have;
//  - a citation whose keyword is not of the row's level (a MUST row rests on
//    a MUST or MUST NOT, a SHOULD row on a SHOULD or SHOULD NOT);
//  - a sentence citation not written "§11.2 S#1 [d0006b79]", or whose
//    sentence the index does not have, or has with another hash: SPEC.md
//    reworded or moved it, and a reader must re-read it and cite it again.
//    A sentence says what a MUST, SHOULD or 0.22 row tests; it backs no level
//    by itself (prose without a keyword is not a MUST, docs/decisions.md);
//  - a MUST or SHOULD row none of whose keyword occurrences lies in one of
//    its own sections, and that cites no sentence of them: it reaches its
//    keyword through a sentence about something else, so it must name the
//    sentence of its section that says what it tests;
//  - a 0.22 row that names no source, or one that is neither "diff FILE",
//    "diff FILE @@N" with FILE and its N-th hunk in the index, nor
//    "upstream PATH" with PATH a file the upstream manifest lists.
// Reference rows are level_problems' (catalog.hpp); rows of other kinds judge
// no candidate and need no source.
std::vector<std::string> source_problems(const std::vector<CatalogEntry>& catalog,
                                         const SpecKeywordIndex& index);

}  // namespace ssp::harness
