#include "harness/driver/driver_pool.hpp"

#include <cstdlib>
#include <string_view>

#include "harness/driver/driver_hello.hpp"

namespace ssp::harness {

DriverPool& DriverPool::of_this_run() {
  static DriverPool pool([] {
    const char* value = std::getenv("SSP_DRIVER_REUSE");
    return value == nullptr || std::string_view(value) != "0";
  }());
  return pool;
}

std::unique_ptr<DriverProcess> DriverPool::take(const std::string& command) {
  // Ended outside the lock (each waits for its exit): idle processes that
  // died meanwhile, which are never handed out.
  std::vector<std::unique_ptr<DriverProcess>> dead;
  {
    std::lock_guard lock(mutex_);
    auto& idle = idle_[command];
    while (!idle.empty()) {
      std::unique_ptr<DriverProcess> process = std::move(idle.back());
      idle.pop_back();
      if (process->healthy()) return process;
      dead.push_back(std::move(process));
    }
  }
  auto process = std::make_unique<DriverProcess>(command, driver_limits());
  say_hello(*process);
  return process;
}

void DriverPool::give_back(const std::string& command, std::unique_ptr<DriverProcess> process) {
  if (!reuse_ || !process->healthy()) return;
  {
    std::lock_guard lock(mutex_);
    auto& idle = idle_[command];
    if (idle.size() < kMaxIdlePerCommand) {
      idle.push_back(std::move(process));
      return;
    }
  }
}  // a process not kept is ended here, outside the lock

void DriverPool::end_idle() {
  std::map<std::string, std::vector<std::unique_ptr<DriverProcess>>> ending;
  {
    std::lock_guard lock(mutex_);
    ending.swap(idle_);
  }
  // Destroyed outside the lock: each waits for its process to exit.
}

DriverPool::~DriverPool() { end_idle(); }

}  // namespace ssp::harness
