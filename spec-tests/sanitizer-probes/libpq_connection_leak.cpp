// Leaks a libpq connection on purpose. scripts/check-lsan-suppressions runs
// it under LeakSanitizer with the project's suppressions (scripts/lsan.supp),
// which must still report it: a suppression that hid every leak with a libpq
// frame (as `leak:libpq.so` did) would hide a connection of ours that is never
// closed, and this probe would then pass silently.
#include <libpq-fe.h>

#include <cstring>

namespace {

// Opens a connection (to a socket directory that does not exist, so no server
// is needed: libpq still allocates the connection) and forgets it.
[[gnu::noinline]] void open_and_forget() {
  PGconn* forgotten = PQconnectdb("host=/nonexistent-ssp-probe-socket-directory");
  static_cast<void>(forgotten);
}

// Overwrites the stack the forgotten pointer was on, so that LeakSanitizer
// cannot find it there and call it reachable.
[[gnu::noinline]] void scrub_the_stack() {
  volatile char scratch[4096];
  std::memset(const_cast<char*>(scratch), 0, sizeof scratch);
}

}  // namespace

int main() {
  open_and_forget();
  scrub_the_stack();
  return 0;
}
