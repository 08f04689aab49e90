// A display reporter that passes everything to Google Benchmark's default one
// and counts the benchmarks that stopped with an error, so that ssp-bench can
// exit non-zero: a smoke pass in which a benchmark failed must fail.
#pragma once

#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

namespace ssp::bench {

class FailureCountingReporter final : public benchmark::BenchmarkReporter {
 public:
  FailureCountingReporter() : display_(benchmark::CreateDefaultDisplayReporter()) {}

  bool ReportContext(const Context& context) override { return display_->ReportContext(context); }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) failures_ += run.error_occurred ? 1 : 0;
    display_->ReportRuns(runs);
  }

  void Finalize() override { display_->Finalize(); }

  int failures() const { return failures_; }

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> display_;
  int failures_ = 0;
};

}  // namespace ssp::bench
