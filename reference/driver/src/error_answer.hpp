// The error object of an answer (docs/driver-protocol.md, "Errors") for the
// exception a method threw.
#pragma once

#include <exception>

#include "wire/wire_json.hpp"

namespace ssp::driver {

// A method or option this driver does not implement (ssp.unsupported).
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// {"code", "message", "data"?}: the contract's named code for the reference's
// typed errors, ssp.bad_request for a WireError, ssp.unsupported, and
// ssp.internal for anything else. The message is the exception's text.
wire::Json error_answer(const std::exception_ptr& error);

}  // namespace ssp::driver
