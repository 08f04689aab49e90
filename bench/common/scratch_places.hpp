// Fresh, private places a site measures in, shared by the segment and push
// sites: nothing a run leaves behind can be seen by the next one.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ssp::bench {

// A new empty directory under $TMPDIR (or /tmp). The caller removes it.
// Throws std::runtime_error when it cannot be created.
std::filesystem::path make_temp_directory();

// A PostgreSQL schema name unused by this process so far and unlikely in any
// other (it carries the pid): "ssp_bench_<pid>_<n>_<role>".
std::string fresh_schema_name(std::string_view role);

}  // namespace ssp::bench
