#include "harness/verdict/report_files.hpp"

#include <fstream>
#include <stdexcept>
#include <system_error>

#include "harness/verdict/junit_report.hpp"
#include "harness/verdict/summary_json.hpp"
#include "harness/verdict/summary_markdown.hpp"

namespace ssp::harness {
namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write the report " + path.string());
}

}  // namespace

void write_reports(const std::filesystem::path& directory, const RunSummary& run) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("cannot create the report directory " + directory.string() + ": " +
                             error.message());
  }
  write_file(directory / "junit.xml", junit_xml(run));
  write_file(directory / "summary.json", summary_json(run));
  write_file(directory / "summary.md", summary_markdown(run));
}

}  // namespace ssp::harness
