#include "relay/postgres_relay.hpp"

#include <fcntl.h>
#include <libpq-fe.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ssp::harness {
namespace {

// The port in the socket's name (.s.PGSQL.<port>): any number does, the
// directory is ours alone.
constexpr const char* kProxyPort = "5432";

// Startup-phase requests (protocol codes) that the server answers with one
// unframed byte. The relay declines them itself, so that the server's stream
// stays framed from its first byte.
constexpr std::uint32_t kSslRequest = 80877103;
constexpr std::uint32_t kGssEncRequest = 80877104;
// A startup packet longer than this is not one.
constexpr std::uint32_t kMaxStartupPacket = 10'000;

std::runtime_error failure(const std::string& what) {
  return std::runtime_error("PostgresRelay: " + what);
}

std::string system_error_text() { return std::strerror(errno); }

std::uint32_t big_endian_32(const unsigned char* bytes) {
  return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
         (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

bool send_all(int fd, const unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    data += sent;
    size -= static_cast<std::size_t>(sent);
  }
  return true;
}

bool receive_exactly(int fd, unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t got = ::recv(fd, data, size, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    data += got;
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

// A conninfo value, quoted as libpq reads it.
std::string quoted(const std::string& value) {
  std::string out = "'";
  for (const char c : value) {
    if (c == '\'' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

// Where the upstream server listens.
struct Upstream {
  std::string socket_path;  // a Unix socket, or empty for TCP
  std::string host;         // TCP: a name or an address
  std::string port;

  std::string describe() const {
    return socket_path.empty() ? host + ":" + port : socket_path;
  }

  // A connected socket. Throws naming the server when it cannot connect.
  int connect() const {
    if (!socket_path.empty()) {
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      if (socket_path.size() >= sizeof(address.sun_path)) {
        throw failure("upstream socket path too long: " + socket_path);
      }
      std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
      const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd < 0) throw failure("cannot make a socket: " + system_error_text());
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
        const std::string error = system_error_text();
        ::close(fd);
        throw failure("cannot connect to the upstream server at " + socket_path + ": " + error);
      }
      return fd;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int status = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found);
        status != 0) {
      throw failure("cannot resolve the upstream server " + describe() + ": " +
                    ::gai_strerror(status));
    }
    std::string error = "no address";
    int fd = -1;
    for (const addrinfo* address = found; address != nullptr && fd < 0;
         address = address->ai_next) {
      fd = ::socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC,
                    address->ai_protocol);
      if (fd < 0) {
        error = system_error_text();
        continue;
      }
      if (::connect(fd, address->ai_addr, address->ai_addrlen) != 0) {
        error = system_error_text();
        ::close(fd);
        fd = -1;
      }
    }
    ::freeaddrinfo(found);
    if (fd < 0) {
      throw failure("cannot connect to the upstream server at " + describe() + ": " + error);
    }
    return fd;
  }
};

std::string environment_or(const char* name, const std::string& otherwise) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : otherwise;
}

// The upstream server of `settings` (the parsed DSN), and the settings the
// relayed DSN keeps: all but where the server is and how the hop to it is
// encrypted (the client's hop is a local socket; the relay's is plain).
Upstream upstream_of(const std::map<std::string, std::string>& settings) {
  const auto setting = [&](const char* key) {
    const auto found = settings.find(key);
    return found == settings.end() ? std::string() : found->second;
  };
  Upstream upstream;
  upstream.port = setting("port");
  if (upstream.port.empty()) upstream.port = environment_or("PGPORT", "5432");
  std::string host = setting("hostaddr");
  if (host.empty()) host = setting("host");
  if (host.empty()) host = environment_or("PGHOST", "/var/run/postgresql");
  if (host.find(',') != std::string::npos || upstream.port.find(',') != std::string::npos) {
    throw failure("the upstream DSN names several hosts or ports; one is supported");
  }
  if (host.front() == '/') {
    upstream.socket_path = host + "/.s.PGSQL." + upstream.port;
  } else {
    upstream.host = host;
  }
  return upstream;
}

bool kept_in_relayed_dsn(const std::string& key) {
  static const char* const kDropped[] = {"host",        "hostaddr",       "port",
                                         "sslmode",     "requiressl",     "gssencmode",
                                         "sslnegotiation"};
  return std::none_of(std::begin(kDropped), std::end(kDropped),
                      [&](const char* dropped) { return key == dropped; });
}

std::map<std::string, std::string> parse_dsn(const std::string& dsn) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(dsn.c_str(), &error);
  if (options == nullptr) {
    const std::string message = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    throw failure("cannot parse the upstream DSN: " + message);
  }
  std::map<std::string, std::string> settings;
  for (const PQconninfoOption* option = options; option->keyword != nullptr; ++option) {
    if (option->val != nullptr) settings[option->keyword] = option->val;
  }
  PQconninfoFree(options);
  return settings;
}

// Follows the framing of the server's stream across reads and counts the
// ReadyForQuery messages that start in each chunk.
class ServerFrames {
 public:
  int ready_for_query_in(const unsigned char* data, std::size_t size) {
    int ready = 0;
    std::size_t at = 0;
    while (at < size) {
      if (body_left_ > 0) {
        const std::size_t skipped = std::min<std::size_t>(body_left_, size - at);
        body_left_ -= static_cast<std::uint32_t>(skipped);
        at += skipped;
        continue;
      }
      header_[header_size_++] = data[at++];
      if (header_size_ == 1 && header_[0] == 'Z') ++ready;
      if (header_size_ == header_.size()) {
        const std::uint32_t length = big_endian_32(header_.data() + 1);
        body_left_ = length >= 4 ? length - 4 : 0;
        header_size_ = 0;
      }
    }
    return ready;
  }

 private:
  std::array<unsigned char, 5> header_{};  // type byte, then the length
  std::size_t header_size_ = 0;
  std::uint32_t body_left_ = 0;
};

// Follows the framing of a client's stream after its startup packet and
// keeps the SQL of its last simple Query ('Q') or Parse ('P'), for a cut's
// report.
class ClientFrames {
 public:
  void read(const unsigned char* data, std::size_t size) {
    std::size_t at = 0;
    while (at < size) {
      if (body_left_ > 0) {
        const std::size_t taken = std::min<std::size_t>(body_left_, size - at);
        if (type_ == 'Q' || type_ == 'P') {
          body_.append(reinterpret_cast<const char*>(data + at),
                       std::min(taken, kBodyKept - std::min(kBodyKept, body_.size())));
        }
        body_left_ -= static_cast<std::uint32_t>(taken);
        at += taken;
        if (body_left_ == 0) finish_frame();
        continue;
      }
      header_[header_size_++] = data[at++];
      if (header_size_ == header_.size()) {
        type_ = header_[0];
        const std::uint32_t length = big_endian_32(header_.data() + 1);
        body_left_ = length >= 4 ? length - 4 : 0;
        header_size_ = 0;
        body_.clear();
        if (body_left_ == 0) finish_frame();
      }
    }
  }

  const std::string& last_statement() const { return last_statement_; }

 private:
  static constexpr std::size_t kBodyKept = 240;

  void finish_frame() {
    if (type_ != 'Q' && type_ != 'P') return;
    // Q: the query, NUL-ended; P: the statement's name, NUL, then the query.
    std::string text = body_;
    if (type_ == 'P') {
      const std::size_t name_end = text.find('\0');
      text = name_end == std::string::npos ? std::string() : text.substr(name_end + 1);
    }
    text = text.substr(0, text.find('\0'));
    if (text.size() > kStatementShown) text = text.substr(0, kStatementShown) + "...";
    if (!text.empty()) last_statement_ = text;
  }

  static constexpr std::size_t kStatementShown = 120;
  std::array<unsigned char, 5> header_{};
  std::size_t header_size_ = 0;
  std::uint32_t body_left_ = 0;
  unsigned char type_ = 0;
  std::string body_;
  std::string last_statement_;
};

using Cut = PostgresRelay::Cut;
using CutMoment = PostgresRelay::CutMoment;

// The armed cut of one relay, shared by its connections: it counts the
// round trips that end after cut_at and decides where the k-th is cut.
class CutSwitch {
 public:
  void arm(std::int64_t round_trip, CutMoment moment) {
    std::lock_guard lock(mutex_);
    armed_ = true;
    round_trip_ = round_trip;
    moment_ = moment;
    answered_ = 0;
    made_.reset();
  }

  std::optional<Cut> made() const {
    std::lock_guard lock(mutex_);
    return made_;
  }

  // A client is about to send a request's first bytes: whether to cut instead.
  bool cuts_request(const std::string& last_statement) {
    std::lock_guard lock(mutex_);
    if (!armed_ || moment_ != CutMoment::before_request || answered_ != round_trip_ - 1) {
      return false;
    }
    return cut(last_statement);
  }

  // The server sent bytes ending `ready` round trips: whether to cut
  // instead of passing them on.
  bool cuts_answer(int ready, const std::string& last_statement) {
    if (ready == 0) return false;
    std::lock_guard lock(mutex_);
    if (!armed_) return false;
    if (moment_ == CutMoment::after_answer && answered_ + ready >= round_trip_) {
      return cut(last_statement);
    }
    answered_ += ready;
    return false;
  }

 private:
  bool cut(const std::string& last_statement) {
    made_ = Cut{round_trip_, moment_, last_statement};
    armed_ = false;
    return true;
  }

  mutable std::mutex mutex_;
  bool armed_ = false;
  std::int64_t round_trip_ = 0;
  CutMoment moment_ = CutMoment::before_request;
  std::int64_t answered_ = 0;  // round trips ended since arm()
  std::optional<Cut> made_;
};

// One client connection and its upstream connection, relayed by two threads.
class RelayedConnection {
 public:
  RelayedConnection(int client, int server, std::atomic<std::int64_t>& round_trips,
                    std::atomic<std::int64_t>& request_round_trips, CutSwitch& cuts)
      : client_(client),
        server_(server),
        round_trips_(round_trips),
        request_round_trips_(request_round_trips),
        cuts_(cuts) {
    to_server_ = std::thread([this] { relay_to_server(); });
    to_client_ = std::thread([this] { relay_to_client(); });
  }

  ~RelayedConnection() {
    ::shutdown(client_, SHUT_RDWR);
    ::shutdown(server_, SHUT_RDWR);
    to_server_.join();
    to_client_.join();
    ::close(client_);
    ::close(server_);
  }

  RelayedConnection(const RelayedConnection&) = delete;
  RelayedConnection& operator=(const RelayedConnection&) = delete;

 private:
  // Passes the startup packet on, declining any encryption request first.
  bool relay_startup() {
    for (;;) {
      unsigned char length_bytes[4];
      if (!receive_exactly(client_, length_bytes, sizeof(length_bytes))) return false;
      const std::uint32_t length = big_endian_32(length_bytes);
      if (length < 8 || length > kMaxStartupPacket) return false;
      std::vector<unsigned char> packet(length);
      std::copy(std::begin(length_bytes), std::end(length_bytes), packet.begin());
      if (!receive_exactly(client_, packet.data() + 4, length - 4)) return false;
      const std::uint32_t code = big_endian_32(packet.data() + 4);
      if (length == 8 && (code == kSslRequest || code == kGssEncRequest)) {
        const unsigned char declined = 'N';
        if (!send_all(client_, &declined, 1)) return false;
        continue;
      }
      return send_all(server_, packet.data(), packet.size());
    }
  }

  void relay_to_server() {
    if (relay_startup()) {
      std::array<unsigned char, 64 * 1024> buffer;
      for (;;) {
        const ssize_t got = ::recv(client_, buffer.data(), buffer.size(), 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        const auto size = static_cast<std::size_t>(got);
        // Bytes before the handshake ended are its own (a password exchange).
        if (handshake_ended_ && cuts_.cuts_request(last_statement())) {
          cut_both_ways();
          break;
        }
        read_statements(buffer.data(), size);
        if (!send_all(server_, buffer.data(), size)) break;
      }
    }
    // The server sees the client leave and closes its side, ending the other thread.
    ::shutdown(server_, SHUT_WR);
  }

  void relay_to_client() {
    ServerFrames frames;
    std::array<unsigned char, 64 * 1024> buffer;
    for (;;) {
      const ssize_t got = ::recv(server_, buffer.data(), buffer.size(), 0);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      const auto size = static_cast<std::size_t>(got);
      // Counted before the client can see the answer.
      const int ready = frames.ready_for_query_in(buffer.data(), size);
      round_trips_ += ready;
      // The connection's first ReadyForQuery ends its startup handshake, which
      // a pool makes whenever it likes: only the requests' round trips after
      // it are numbered for a cut.
      int requests_ended = ready;
      if (ready > 0 && !handshake_ended_) {
        handshake_ended_ = true;
        --requests_ended;
      }
      request_round_trips_ += requests_ended;
      if (cuts_.cuts_answer(requests_ended, last_statement())) break;
      if (!send_all(client_, buffer.data(), size)) break;
    }
    ::shutdown(client_, SHUT_RDWR);
    ::shutdown(server_, SHUT_RDWR);
  }

  // Both sockets shut down: the server sees its client gone (and rolls back
  // an open transaction), the client sees the server gone.
  void cut_both_ways() {
    ::shutdown(client_, SHUT_RDWR);
    ::shutdown(server_, SHUT_RDWR);
  }

  void read_statements(const unsigned char* data, std::size_t size) {
    std::lock_guard lock(statements_mutex_);
    statements_.read(data, size);
  }

  std::string last_statement() {
    std::lock_guard lock(statements_mutex_);
    return statements_.last_statement();
  }

  int client_;
  int server_;
  std::atomic<std::int64_t>& round_trips_;
  std::atomic<std::int64_t>& request_round_trips_;
  // Set by relay_to_client before it passes the handshake's end on, so before
  // the client can send a request; read by relay_to_server.
  std::atomic<bool> handshake_ended_{false};
  CutSwitch& cuts_;
  std::mutex statements_mutex_;  // the two threads: one writes, the other reads for a cut
  ClientFrames statements_;
  std::thread to_server_;
  std::thread to_client_;
};

}  // namespace

struct PostgresRelay::Relay {
  Upstream upstream;
  std::filesystem::path directory;
  std::filesystem::path socket_path;
  std::string dsn;
  int listener = -1;
  int wake[2] = {-1, -1};  // written to stop the accepting thread
  std::atomic<std::int64_t> round_trips{0};
  std::atomic<std::int64_t> request_round_trips{0};
  CutSwitch cuts;
  std::mutex mutex;
  std::vector<std::unique_ptr<RelayedConnection>> connections;
  std::thread acceptor;

  void accept_connections() {
    for (;;) {
      pollfd waiting[2] = {{listener, POLLIN, 0}, {wake[0], POLLIN, 0}};
      if (::poll(waiting, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (waiting[1].revents != 0) return;
      const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      try {
        const int server = upstream.connect();
        std::lock_guard lock(mutex);
        connections.push_back(
            std::make_unique<RelayedConnection>(client, server, round_trips,
                                                request_round_trips, cuts));
      } catch (const std::exception& error) {
        // The client sees the server close; say why where a person looks.
        std::fprintf(stderr, "%s\n", error.what());
        ::close(client);
      }
    }
  }

  void release() {
    if (wake[1] >= 0 && acceptor.joinable()) {
      const char stop = 1;
      while (::write(wake[1], &stop, 1) < 0 && errno == EINTR) {
      }
      acceptor.join();
    }
    connections.clear();
    for (const int fd : {listener, wake[0], wake[1]}) {
      if (fd >= 0) ::close(fd);
    }
    std::error_code ignored;
    if (!directory.empty()) std::filesystem::remove_all(directory, ignored);
  }
};

PostgresRelay::PostgresRelay(const std::string& upstream_dsn)
    : relay_(std::make_unique<Relay>()) {
  Relay& relay = *relay_;
  try {
    const std::map<std::string, std::string> settings = parse_dsn(upstream_dsn);
    relay.upstream = upstream_of(settings);
    ::close(relay.upstream.connect());  // fail here, not in a client

    std::string pattern = (std::filesystem::temp_directory_path() / "ssp-rt-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw failure("cannot make a temporary directory: " + system_error_text());
    }
    relay.directory = pattern;
    relay.socket_path = relay.directory / (std::string(".s.PGSQL.") + kProxyPort);

    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = relay.socket_path.string();
    if (path.size() >= sizeof(address.sun_path)) {
      throw failure("socket path too long: " + path);
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    relay.listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (relay.listener < 0) throw failure("cannot make a socket: " + system_error_text());
    if (::bind(relay.listener, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) !=
            0 ||
        ::listen(relay.listener, SOMAXCONN) != 0) {
      throw failure("cannot listen on " + path + ": " + system_error_text());
    }
    if (::pipe2(relay.wake, O_CLOEXEC) != 0) {
      throw failure("cannot make a pipe: " + system_error_text());
    }

    for (const auto& [key, value] : settings) {
      if (kept_in_relayed_dsn(key)) relay.dsn += key + "=" + quoted(value) + " ";
    }
    relay.dsn += "host=" + quoted(relay.directory.string()) + " port=" + kProxyPort;
    relay.acceptor = std::thread([&relay] { relay.accept_connections(); });
  } catch (...) {
    relay.release();
    throw;
  }
}

PostgresRelay::~PostgresRelay() { relay_->release(); }

std::string PostgresRelay::dsn() const { return relay_->dsn; }

std::int64_t PostgresRelay::round_trips() const { return relay_->round_trips.load(); }

std::int64_t PostgresRelay::request_round_trips() const {
  return relay_->request_round_trips.load();
}

void PostgresRelay::cut_at(std::int64_t round_trip, CutMoment moment) {
  relay_->cuts.arm(round_trip, moment);
}

std::optional<PostgresRelay::Cut> PostgresRelay::cut_made() const {
  return relay_->cuts.made();
}

}  // namespace ssp::harness
