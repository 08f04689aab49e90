// The trail of points one faulted call passes (push_callback_points.hpp,
// segment_put_points.hpp, startup_points.hpp): each callback's call is
// named, recorded, and killed when it is the point asked for. Shared by the
// copies of the options it instruments, so that the test reads what the
// candidate did.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ssp::harness {

class FaultPointTrail {
 public:
  // Records the point of one call of `callback`, with its ordinal
  // ("validate_row#2") when `counted`, as it is ("hook:after_lock") when not;
  // throws CandidateKilled when it is the point of kill_at.
  void pass(const std::string& callback, bool counted);

  // The point at which the next call is killed; nothing: none.
  void kill_at(std::optional<std::string> point) { kill_at_ = std::move(point); }

  // Every point passed, in order.
  const std::vector<std::string>& reached() const { return reached_; }

 private:
  std::vector<std::string> reached_;
  std::map<std::string, int> counts_;  // calls per callback, for the ordinal
  std::optional<std::string> kill_at_;
};

// What the point sets of one kind of call share: a trail of their own, the
// point to kill at, the points reached. A derived set's instrument() puts its
// callbacks on the trail.
class FaultPointSet {
 public:
  // The point at which the next instrumented call is killed; nothing: none.
  void kill_at(std::optional<std::string> point) { trail_->kill_at(std::move(point)); }

  // Every point passed since construction, in order.
  const std::vector<std::string>& reached() const { return trail_->reached(); }

 protected:
  // For the callbacks an instrument() installs, which outlive no test.
  const std::shared_ptr<FaultPointTrail>& trail() const { return trail_; }

 private:
  std::shared_ptr<FaultPointTrail> trail_ = std::make_shared<FaultPointTrail>();
};

}  // namespace ssp::harness
