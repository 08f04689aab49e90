// The fixture of the tests that speak the driver protocol raw to each driver
// that pushes (ssp-reference-driver and the Python candidate), the parameter
// naming which: the driver's process, started with the test's flags and
// greeted, and a scratch SQLite file for its storages, removed afterwards
// with its -wal and -shm files.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "harness/driver/driver_process.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/util/scratch_directory.hpp"

namespace ssp::driver_tests {

class RawDriverTest : public ::testing::TestWithParam<std::string> {
 protected:
  // The refusals these tests provoke are the driver's right answers.
  const harness::DriverErrorsExpected refusals_expected_;

  // Starts the driver GetParam() names ("reference" or "python") with
  // `flags` appended to its command, and answers its version-2 hello.
  wire::Json start(const std::string& flags, const std::string& harness_name) {
    std::random_device random;
    path_ = harness::scratch_directory() /
            ("ssp-" + harness_name + "-" + std::to_string(random()) + ".db");
    const std::string command =
        GetParam() == "reference"
            ? "'" + std::string(SSP_REFERENCE_DRIVER) + "'"
            : "python3 '" + std::string(SSP_SOURCE_DIR) + "/candidates/python/driver.py'";
    process_ = std::make_unique<harness::DriverProcess>(command + flags, harness::driver_limits());
    return process_->call("hello", {{"protocol", 2}, {"harness", harness_name}});
  }

  void TearDown() override {
    process_.reset();
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(path_.string() + suffix, ignored);
    }
  }

  std::filesystem::path path_;
  std::unique_ptr<harness::DriverProcess> process_;
};

}  // namespace ssp::driver_tests
