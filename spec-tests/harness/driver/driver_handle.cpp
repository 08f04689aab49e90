#include "harness/driver/driver_handle.hpp"

#include <gtest/gtest.h>

#include "harness/driver/driver_pool.hpp"
#include "harness/errors/driver_error.hpp"

namespace ssp::harness {

DriverHandle::DriverHandle(const std::string& command, std::string area, std::string key,
                           wire::Json params)
    : command_(command),
      process_(DriverPool::of_this_run().take(command)),
      area_(std::move(area)),
      key_(std::move(key)) {
  const std::string open = method("open");
  wire::Json result;
  try {
    result = process_->call(open, std::move(params));
  } catch (...) {
    // Refused with an answer: nothing is open, the process may serve the next
    // store (the pool ends it instead when the call broke it).
    DriverPool::of_this_run().give_back(command_, std::move(process_));
    throw;
  }
  handle_ = decode_answer(open, [&] { return wire::Fields(result, "result").at(key_); });
}

DriverHandle::~DriverHandle() {
  if (!process_->healthy()) return;  // the call that broke it already reported why
  try {
    call("close", wire::Json::object());
  } catch (const DriverError& error) {
    if (::testing::UnitTest::GetInstance()->current_test_info()) ADD_FAILURE() << error.what();
    return;
  } catch (const std::exception& error) {
    if (::testing::UnitTest::GetInstance()->current_test_info()) {
      ADD_FAILURE() << DriverError(method("close"), error.what()).what();
    }
    return;
  }
  DriverPool::of_this_run().give_back(command_, std::move(process_));
}

wire::Json DriverHandle::call(const std::string& verb, wire::Json params,
                              const DriverProcess::CallbackHandler& on_callback) {
  return call_method(method(verb), std::move(params), on_callback);
}

wire::Json DriverHandle::call_method(const std::string& method, wire::Json params,
                                     const DriverProcess::CallbackHandler& on_callback) {
  params[key_] = handle_;
  return process_->call(method, std::move(params), on_callback);
}

}  // namespace ssp::harness
