// What a driver that declares no hook points (--no-hooks) does with a request
// that asks for them: it refuses it (ssp.unsupported), as a production
// implementation has none to offer. A test that installs a hook the hello did
// not declare then errs, instead of running unnoticed without it.
#include "error_answer.hpp"
#include "methods.hpp"

namespace ssp::driver {
namespace {

// Wraps `method` of `table` so that it refuses a request whose hooks flag,
// read by `asks`, is true.
void refuse_when(MethodTable& table, const std::string& method,
                 bool (*asks)(const Fields& params)) {
  Method served = table.at(method);
  table[method] = [served = std::move(served), method, asks](const Fields& params) {
    if (asks(params)) {
      throw Unsupported(method + ": this driver declares no hook points (--no-hooks)");
    }
    return served(params);
  };
}

bool options_ask(const Fields& params) { return params.object("options").boolean("hooks"); }
bool callbacks_ask(const Fields& params) { return params.object("callbacks").boolean("hooks"); }

}  // namespace

void refuse_hook_requests(MethodTable& table) {
  refuse_when(table, "segments.open", options_ask);
  refuse_when(table, "storage.open", options_ask);
  refuse_when(table, "push.run", callbacks_ask);
  refuse_when(table, "command.run", callbacks_ask);
}

}  // namespace ssp::driver
