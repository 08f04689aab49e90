// The callbacks a push.run or a command.run sends back while it runs
// (docs/driver-protocol.md, "callbacks"): the test's row validators,
// whole-commit validator, notifier and hook. A command's commit passes the
// ordinary validators and notifier (REMOTE §3), so both calls say which they
// carry and answer them the same way.
#pragma once

#include <string>

#include "harness/driver/driver_handle.hpp"
#include "harness/driver/push/push_hook_trail.hpp"
#include "ssp/push/push_types.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {

// The request's "callbacks" object: the tables with a row validator in
// `options`, and whether it has a whole-commit validator, a notifier, a hook.
wire::Json push_callbacks_to_json(const push::PushOptions& options);

// Answers the callback `name` with `params` that the call `method` sent on
// `handle`'s process, by running what `options` installed: a validator's
// verdict, or {} after the notifier or the hook (whose point `trail` checks).
// While the whole-commit validator runs, its read goes to push.read_row and
// push.scan_rows of the same call. Throws DriverError for a callback the call
// was not sent with, and lets CandidateKilled (a fault the test injects) out.
wire::Json answer_push_callback(const std::string& method, const std::string& name,
                                const wire::Fields& params, DriverHandle& handle,
                                const push::PushOptions& options, HookTrail& trail);

}  // namespace ssp::harness
