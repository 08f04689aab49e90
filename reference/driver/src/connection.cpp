#include "connection.hpp"

#include <iostream>
#include <thread>

namespace ssp::driver {

void Connection::send(const Json& message) {
  const std::string line = wire::dump_line(message);
  std::lock_guard lock(write_mutex_);
  out_ << line << '\n';
  out_.flush();
}

Json Connection::callback(const Json& call_id, const std::string& method, Json params) {
  params["call"] = call_id;
  Waiting waiting;
  std::string id;
  {
    std::lock_guard lock(mutex_);
    if (closed_) throw ConnectionClosed("the harness closed the connection");
    // Appended, not "c" + …: GCC 12 misreads that inlined operator+ as an
    // overlapping copy (-Wrestrict) in optimized builds.
    id.append("c").append(std::to_string(++next_callback_));
    waiting_[id] = &waiting;
  }
  send(Json{{"id", id}, {"method", method}, {"params", std::move(params)}});
  std::unique_lock lock(mutex_);
  answered_.wait(lock, [&] { return waiting.answer.has_value() || closed_; });
  waiting_.erase(id);
  if (!waiting.answer) throw ConnectionClosed("the harness closed the connection");
  const Json& answer = *waiting.answer;
  if (answer.contains("error")) {
    const Json& error = answer.at("error");
    throw CallbackRefused(error.is_object() && error.value("message", Json()).is_string()
                              ? error.at("message").get<std::string>()
                              : std::string("the harness refused ") + method);
  }
  return answer.contains("result") ? answer.at("result") : Json::object();
}

void Connection::deliver(const Json& answer) {
  const Json& id = answer.at("id");
  std::lock_guard lock(mutex_);
  const auto found = id.is_string() ? waiting_.find(id.get<std::string>()) : waiting_.end();
  if (found == waiting_.end()) {
    std::cerr << "ssp-reference-driver: an answer to no callback in flight: " << id.dump() << "\n";
    return;
  }
  found->second->answer = answer;
  answered_.notify_all();
}

void Connection::run(const std::function<void(const Json& request)>& serve) {
  std::string line;
  while (std::getline(in_, line)) {
    if (line.empty()) continue;
    Json message;
    try {
      message = wire::parse_line(line);
    } catch (const wire::WireError& error) {
      std::cerr << "ssp-reference-driver: " << error.what() << "\n";
      continue;
    }
    if (!message.contains("id")) {
      std::cerr << "ssp-reference-driver: a message without id: " << line << "\n";
    } else if (message.contains("method")) {
      dispatch(serve, message);
    } else {
      deliver(message);
    }
  }
  {
    std::unique_lock lock(mutex_);
    closed_ = true;
    answered_.notify_all();
    answered_.wait(lock, [&] { return serving_ == 0; });
    work_ready_.notify_all();
  }
  // Joined, not only finished: a worker still exiting when main returns runs
  // its thread-local destructors (OpenSSL's among them) against the exit
  // handlers' OPENSSL_cleanup. ASan caught a double free there when the
  // threads were detached.
  for (auto& worker : workers_) worker.join();
  workers_.clear();
}

void Connection::dispatch(const std::function<void(const Json& request)>& serve,
                          const Json& request) {
  {
    std::lock_guard lock(mutex_);
    ++serving_;
    if (idle_ > 0) {
      --idle_;
      handed_.push_back(request);
      work_ready_.notify_one();
      return;
    }
  }
  workers_.emplace_back([this, &serve, request] { work(serve, request); });
}

void Connection::work(const std::function<void(const Json& request)>& serve, Json request) {
  for (;;) {
    serve(request);
    request = Json();  // an idle worker holds no request: one may be megabytes
    std::unique_lock lock(mutex_);
    --serving_;
    ++idle_;
    answered_.notify_all();
    work_ready_.wait(lock, [&] { return !handed_.empty() || closed_; });
    // Closed: run saw every request served, so nothing is left to take.
    if (handed_.empty()) return;
    request = std::move(handed_.front());
    handed_.pop_front();
  }
}

}  // namespace ssp::driver
