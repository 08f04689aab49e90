#include "harness/driver/driver_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "harness/errors/candidate_killed.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/util/scratch_directory.hpp"
#include "wire/error_codes.hpp"

extern char** environ;

namespace ssp::harness {
namespace {

using wire::Json;

constexpr std::size_t kStderrTailBytes = 2000;
constexpr std::size_t kExcerptBytes = 200;

// The start of a driver's line for a report. Bytes outside printable ASCII
// are written \xNN: the line may not be UTF-8, and the report ends up in
// GoogleTest's JSON and JUnit files.
std::string excerpt(const std::string& line) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < line.size() && i < kExcerptBytes; ++i) {
    const auto byte = static_cast<unsigned char>(line[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(line[i]);
    } else {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    }
  }
  return line.size() <= kExcerptBytes ? out : out + "…";
}

std::string describe_exit(const siginfo_t& info) {
  if (info.si_code == CLD_EXITED) return "exited with status " + std::to_string(info.si_status);
  const char* name = strsignal(info.si_status);
  return "was killed by signal " + std::to_string(info.si_status) + " (" +
         (name ? name : "unknown") + ")";
}

// The harness writes to pipes whose reader may be gone: EPIPE, not a signal.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { signal(SIGPIPE, SIG_IGN); });
}

// SSP_DRIVER_TRACE=1 copies every line to and from drivers to stderr.
void trace(const char* direction, pid_t pid, const std::string& line) {
  static const bool enabled = [] {
    const char* value = std::getenv("SSP_DRIVER_TRACE");
    return value != nullptr && std::string_view(value) == "1";
  }();
  if (enabled) std::fprintf(stderr, "[driver %d] %s %s\n", static_cast<int>(pid), direction, line.c_str());
}

}  // namespace

DriverLimits driver_limits() {
  const auto from_environment = [](const char* name) -> std::optional<std::chrono::milliseconds> {
    const char* text = std::getenv(name);
    if (text == nullptr) return std::nullopt;
    char* end = nullptr;
    const long long ms = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0' || ms <= 0) return std::nullopt;
    return std::chrono::milliseconds(ms);
  };
  const std::chrono::milliseconds deadline =
      from_environment("SSP_DRIVER_TIMEOUT_MS").value_or(std::chrono::seconds(30));
  const std::chrono::milliseconds ceiling = from_environment("SSP_DRIVER_CALL_CEILING_MS")
      .value_or(std::max<std::chrono::milliseconds>(4 * deadline, std::chrono::seconds(120)));
  return {deadline, ceiling};
}

DriverProcess::DriverProcess(const std::string& command, DriverLimits limits) : limits_(limits) {
  ignore_sigpipe();
  int to_child[2];
  int from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) throw DriverError("start", std::strerror(errno));
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    throw DriverError("start", std::strerror(errno));
  }
  std::string path = (scratch_directory() / "ssp-driver-stderr-XXXXXX").string();
  const int err = mkostemp(path.data(), O_CLOEXEC);
  stderr_path_ = path;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
  if (err >= 0) posix_spawn_file_actions_adddup2(&actions, err, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t signals;
  sigemptyset(&signals);
  posix_spawnattr_setsigmask(&attributes, &signals);
  sigaddset(&signals, SIGPIPE);  // undo ignore_sigpipe in the child
  posix_spawnattr_setsigdefault(&attributes, &signals);
  posix_spawnattr_setpgroup(&attributes, 0);  // a group of its own: a deadline kills all of it
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string script = "exec " + command;
  char shell[] = "/bin/sh";
  char dash_c[] = "-c";
  char* argv[] = {shell, dash_c, script.data(), nullptr};
  const int spawned = posix_spawn(&pid_, shell, &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(to_child[0]);
  close(from_child[1]);
  if (err >= 0) close(err);
  to_driver_ = to_child[1];
  from_driver_ = from_child[0];
  if (spawned != 0) {
    close(to_driver_);
    close(from_driver_);
    unlink(stderr_path_.c_str());
    throw DriverError("start", "cannot start /bin/sh: " + std::string(std::strerror(spawned)));
  }
  reader_ = std::thread(&DriverProcess::read_loop, this);
}

DriverProcess::~DriverProcess() {
  {
    std::lock_guard lock(write_mutex_);
    close(to_driver_);  // end of input: the driver exits
    to_driver_ = -1;
  }
  {
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, limits_.deadline, [&] { return reaped_; })) {
      if (!broken_) broken_ = "the driver did not exit after its input ended";
      kill_locked();
    }
  }
  reader_.join();
  close(from_driver_);
  unlink(stderr_path_.c_str());
}

bool DriverProcess::healthy() const {
  std::lock_guard lock(mutex_);
  return !broken_.has_value();
}

void DriverProcess::kill_and_reap(const std::string& reason) {
  std::unique_lock lock(mutex_);
  if (!broken_) broken_ = reason;
  kill_locked();
  changed_.notify_all();
  // The reader reaps the process once its output ends, which the kill makes
  // immediate; the deadline is only a watchdog against a process that the
  // kernel does not let go.
  changed_.wait_for(lock, limits_.deadline, [this] { return reaped_; });
}

void DriverProcess::kill_locked() {
  if (reaped_ || pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
}

void DriverProcess::break_connection(const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (!broken_) broken_ = reason;
  kill_locked();
  changed_.notify_all();
}

void DriverProcess::read_loop() {
  std::string buffer;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = read(from_driver_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t end; (end = buffer.find('\n', start)) != std::string::npos; start = end + 1) {
      handle_line(buffer.substr(start, end - start));
    }
    buffer.erase(0, start);
  }
  // Output ended: wait for the exit without reaping (the pid stays ours, so
  // a late kill cannot hit another process), describe it, then reap.
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  std::string reason = "the driver " + describe_exit(info);
  if (!buffer.empty()) reason += " after writing an unfinished line: " + excerpt(buffer);
  std::lock_guard lock(mutex_);
  if (!broken_) broken_ = reason;
  kill_locked();  // whatever else its process group still runs
  waitpid(pid_, nullptr, 0);
  reaped_ = true;
  changed_.notify_all();
}

void DriverProcess::handle_line(const std::string& line) {
  trace("->", pid_, line);
  Json message;
  try {
    message = wire::parse_line(line);
  } catch (const wire::WireError& error) {
    break_connection("protocol violation: a line that is not a JSON object (" + excerpt(line) +
                     "): " + error.what());
    return;
  }
  if (message.contains("method")) {
    const Json* call = nullptr;
    if (message.contains("params") && message["params"].is_object() &&
        message["params"].contains("call")) {
      call = &message["params"]["call"];
    }
    std::lock_guard lock(mutex_);
    const auto found = call && call->is_number_integer() ? pending_.find(call->get<std::int64_t>())
                                                         : pending_.end();
    if (!message.contains("id") || found == pending_.end()) {
      if (!broken_) {
        broken_ = "protocol violation: a callback without an id or a call in flight: " +
                  excerpt(line);
      }
      kill_locked();
    } else {
      found->second->callbacks.push_back(std::move(message));
    }
    changed_.notify_all();
    return;
  }
  std::lock_guard lock(mutex_);
  const Json* id = message.contains("id") ? &message["id"] : nullptr;
  const auto found =
      id && id->is_number_integer() ? pending_.find(id->get<std::int64_t>()) : pending_.end();
  std::optional<std::string> violation;
  if (id == nullptr) {
    violation = "a message with neither id nor method: " + excerpt(line);
  } else if (found == pending_.end() || found->second->answer) {
    violation = "an answer to id " + id->dump() + ", which is not in flight";
  } else if (message.contains("result") == message.contains("error")) {
    violation = "an answer with " + std::string(message.contains("result") ? "both" : "neither") +
                " of result and error: " + excerpt(line);
  } else {
    found->second->answer = std::move(message);
  }
  if (violation) {
    if (!broken_) broken_ = "protocol violation: " + *violation;
    kill_locked();
  }
  changed_.notify_all();
}

void DriverProcess::write_line(const Json& message) {
  const std::string line = wire::dump_line(message) + "\n";
  trace("<-", pid_, line.substr(0, line.size() - 1));
  std::lock_guard lock(write_mutex_);
  std::size_t done = 0;
  while (done < line.size() && to_driver_ >= 0) {
    // A driver that stops reading must not block the harness past the deadline.
    pollfd ready{to_driver_, POLLOUT, 0};
    const int polled = poll(&ready, 1, static_cast<int>(limits_.deadline.count()));
    if (polled == 0) {
      break_connection("the driver stopped reading its input for " +
                       std::to_string(limits_.deadline.count()) + " ms; it was killed");
      return;
    }
    if (polled < 0 && errno == EINTR) continue;
    const ssize_t n = write(to_driver_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the driver is gone; the reader reports how
    done += static_cast<std::size_t>(n);
  }
}

std::string DriverProcess::stderr_tail() const {
  std::ifstream file(stderr_path_, std::ios::binary | std::ios::ate);
  const std::streamoff size = file ? static_cast<std::streamoff>(file.tellg()) : 0;
  if (size <= 0) return "\n(the driver wrote nothing on stderr)";
  const std::streamoff from = std::max<std::streamoff>(0, size - std::streamoff(kStderrTailBytes));
  file.seekg(from);
  std::ostringstream tail;
  tail << file.rdbuf();
  return "\n--- tail of the driver's stderr ---\n" + tail.str();
}

void DriverProcess::fail(const std::string& method, const std::string& problem) {
  throw DriverError(method, problem + stderr_tail());
}

Json DriverProcess::call(const std::string& method, Json params,
                         const CallbackHandler& on_callback) {
  Pending pending{method, std::nullopt, {}};
  std::int64_t id = 0;
  {
    std::unique_lock lock(mutex_);
    if (broken_) {
      const std::string reason = *broken_;
      lock.unlock();
      fail(method, "the driver is unusable: " + reason);
    }
    id = ++last_id_;
    pending_[id] = &pending;
  }
  struct Forget {
    DriverProcess& process;
    std::int64_t id;
    ~Forget() {
      std::lock_guard lock(process.mutex_);
      process.pending_.erase(id);
    }
  } forget{*this, id};

  // What the first failed callback of this call threw.
  std::exception_ptr callback_failure;
  write_line(Json{{"id", id}, {"method", method}, {"params", std::move(params)}});
  std::unique_lock lock(mutex_);
  const auto started = std::chrono::steady_clock::now();
  const auto ceiling = started + limits_.ceiling;
  auto silent_until = started + limits_.deadline;
  while (!pending.answer) {
    if (broken_) {
      const std::string reason = *broken_;
      const bool silent = silent_;
      lock.unlock();
      if (silent) throw DriverSilent(method, reason + stderr_tail());
      fail(method, reason);
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= ceiling) {
      // Checked before any callback is served, so callbacks arriving back
      // to back cannot keep a call past its ceiling.
      broken_ = "no answer within the call's ceiling of " +
                std::to_string(limits_.ceiling.count()) +
                " ms (SSP_DRIVER_CALL_CEILING_MS), callbacks included; the driver was killed";
      silent_ = true;
      kill_locked();
      continue;
    }
    if (!pending.callbacks.empty()) {
      Json request = std::move(pending.callbacks.front());
      pending.callbacks.pop_front();
      lock.unlock();
      answer_callback(method, std::move(request), on_callback, callback_failure);
      lock.lock();
      silent_until = std::chrono::steady_clock::now() + limits_.deadline;
      continue;
    }
    if (changed_.wait_until(lock, std::min(silent_until, ceiling)) == std::cv_status::timeout &&
        !pending.answer && pending.callbacks.empty() && !broken_ &&
        std::chrono::steady_clock::now() >= silent_until) {
      broken_ = "no answer within " + std::to_string(limits_.deadline.count()) +
                " ms (SSP_DRIVER_TIMEOUT_MS); the driver was killed";
      silent_ = true;
      kill_locked();
    }
  }
  // Taken out under the lock: a second answer to this id is then "not in flight".
  const Json answer = std::move(*pending.answer);
  pending_.erase(id);
  lock.unlock();
  return result_of(method, answer, callback_failure);
}

void DriverProcess::answer_callback(const std::string& method, Json request,
                                    const CallbackHandler& on_callback,
                                    std::exception_ptr& callback_failure) {
  Json reply{{"id", request["id"]}};
  try {
    const Json& name = request["method"];
    if (!name.is_string()) throw wire::WireError("method: expected a string");
    if (!on_callback) throw DriverError(method, "protocol violation: callback " + name.dump() +
                                                    " during a call that takes none");
    const Json none = Json::object();
    reply["result"] = on_callback(
        name.get<std::string>(),
        wire::Fields(request.contains("params") ? request["params"] : none, "params"));
  } catch (const CandidateKilled& killed) {
    kill_and_reap("killed by the harness at " + killed.point() + " (a fault it injected)");
    throw;
  } catch (const DriverError& error) {
    break_connection(error.what());
    throw;
  } catch (const wire::WireError& error) {
    const std::string problem = std::string("protocol violation: a malformed callback: ") +
                                error.what();
    break_connection(problem);
    fail(method, problem);
  } catch (const std::exception& error) {
    reply["error"] = Json{{"code", wire::code::callback_failed}, {"message", error.what()}};
    // The test's own function threw (a hook injecting a failure): when the
    // driver abandons the call for it, the test sees that exception.
    if (!callback_failure) callback_failure = std::current_exception();
  }
  write_line(reply);
}

Json DriverProcess::result_of(const std::string& method, const Json& answer,
                              const std::exception_ptr& callback_failure) {
  if (answer.contains("error")) {
    const Json& error = answer.at("error");
    if (callback_failure && error.is_object() &&
        error.value("code", Json()) == Json(wire::code::callback_failed)) {
      std::rethrow_exception(callback_failure);
    }
    raise_error_answer(method, error);
  }
  if (!answer.at("result").is_object()) {
    fail(method, "protocol violation: the result is not an object: " +
                     excerpt(wire::dump_line(answer.at("result"))));
  }
  return answer.at("result");
}

}  // namespace ssp::harness
