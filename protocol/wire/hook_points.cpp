#include "wire/hook_points.hpp"

namespace ssp::wire {
namespace {

constexpr std::pair<PutHookPoint, std::string_view> kPutPoints[] = {
    {PutHookPoint::before_begin, "before_begin"},
    {PutHookPoint::after_read, "after_read"},
    {PutHookPoint::before_commit, "before_commit"},
};

constexpr storage::EnsureHookPoint kEnsurePoints[] = {
    storage::EnsureHookPoint::before_lock,
    storage::EnsureHookPoint::after_lock,
    storage::EnsureHookPoint::before_commit,
};

}  // namespace

std::string_view put_hook_point_name(PutHookPoint point) {
  for (const auto& [value, name] : kPutPoints) {
    if (value == point) return name;
  }
  return "unknown";
}

std::optional<PutHookPoint> put_hook_point_from_name(std::string_view name) {
  for (const auto& [value, spelled] : kPutPoints) {
    if (spelled == name) return value;
  }
  return std::nullopt;
}

std::optional<storage::EnsureHookPoint> ensure_hook_point_from_name(std::string_view name) {
  for (const auto point : kEnsurePoints) {
    if (storage::ensure_hook_point_name(point) == name) return point;
  }
  return std::nullopt;
}

}  // namespace ssp::wire
