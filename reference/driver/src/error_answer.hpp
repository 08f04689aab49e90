// The error object of an answer (docs/driver-protocol.md, "Errors") for the
// exception a method threw.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "wire/wire_json.hpp"

namespace ssp::driver {

// A method or option this driver does not implement (ssp.unsupported).
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The implementation behind the driver answered a value the method's result
// cannot hold (a stored push result it read as valid, say): the driver relays
// it as ssp.invalid_result with `raw`, the implementation's answer as text.
class InvalidResult : public std::runtime_error {
 public:
  InvalidResult(const std::string& message, std::string raw)
      : std::runtime_error(message), raw_(std::move(raw)) {}
  const std::string& raw() const { return raw_; }

 private:
  std::string raw_;
};

// {"code", "message", "data"?}: the contract's named code for the reference's
// typed errors, ssp.bad_request for a WireError, ssp.unsupported, and
// ssp.invalid_result for an InvalidResult, ssp.internal for anything else.
// The message is the exception's text.
wire::Json error_answer(const std::exception_ptr& error);

}  // namespace ssp::driver
