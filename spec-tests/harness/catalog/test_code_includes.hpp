// Conformance tests and properties judge a candidate against expected values
// from outside the code under test: literals, known-answer vectors made by
// independent tools (fixtures/known-answers/), the candidate's own answers,
// or small models written in test code. They never ask the reference's rules:
// a wrong rule would then agree with itself (TRACE-8).
//
// The build holds them to it (TRACE-9): test code is compiled against the
// vocabulary (/vocabulary/) and the driver protocol (/protocol/) alone; the
// reference's headers are on no test target's include path but the in-process
// reference candidate's (spec-tests/reference-candidate/) and the self-tests',
// which test the reference itself. This is the check of that fact, read from
// the build's compile_commands.json, so that a target given the reference's
// headers by a later change fails a test rather than passing quietly.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssp::harness {

// The CMake target a compile_commands.json entry builds an object of (the
// folder before ".dir/" in its "output", or in the argument after -o where the
// generator writes no "output"), or "" when the entry names none.
std::string target_of_compile_command(const nlohmann::json& entry);

// The include directories an entry's compiler arguments name (-I, -isystem,
// -iquote, joined or as the next argument), as written. An entry carries its
// arguments as an "arguments" array or a "command" string; a string is split
// at spaces, so a path that holds a space is read in pieces.
std::vector<std::string> include_directories_of(const nlohmann::json& entry);

// One line per entry of `compile_commands` (a compile_commands.json array)
// whose target is in `test_targets` and whose include directories name a
// folder of the reference under `source_root` (reference/include or
// reference/src, or one below them): "<target>: <file> is compiled with <dir>".
std::vector<std::string> reference_headers_in_test_code(const nlohmann::json& compile_commands,
                                                        const std::string& source_root,
                                                        const std::vector<std::string>& test_targets);

// The targets whose sources are test code: the harness, the conformance tests
// and properties, the race and fault tests, the harness's and the driver
// protocol's own tests.
const std::vector<std::string>& test_code_targets();

}  // namespace ssp::harness
