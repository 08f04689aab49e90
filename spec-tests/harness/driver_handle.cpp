#include "harness/driver_handle.hpp"

#include <gtest/gtest.h>

#include "harness/driver_error.hpp"
#include "harness/driver_hello.hpp"

namespace ssp::harness {

DriverHandle::DriverHandle(const std::string& command, std::string area, std::string key,
                           wire::Json params)
    : process_(std::make_unique<DriverProcess>(command, driver_deadline())),
      area_(std::move(area)),
      key_(std::move(key)) {
  say_hello(*process_);
  const std::string open = method("open");
  const wire::Json result = process_->call(open, std::move(params));
  handle_ = decode_answer(open, [&] { return wire::Fields(result, "result").at(key_); });
}

DriverHandle::~DriverHandle() {
  if (!process_->healthy()) return;  // the call that broke it already reported why
  try {
    call("close", wire::Json::object());
  } catch (const DriverError& error) {
    if (::testing::UnitTest::GetInstance()->current_test_info()) ADD_FAILURE() << error.what();
  } catch (const std::exception& error) {
    if (::testing::UnitTest::GetInstance()->current_test_info()) {
      ADD_FAILURE() << DriverError(method("close"), error.what()).what();
    }
  }
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
