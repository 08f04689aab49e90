#include "harness/backends/random_name.hpp"

#include <cstdint>
#include <random>

namespace ssp::harness {

std::string random_name(const std::string& prefix) {
  std::random_device random;
  std::mt19937_64 generator((static_cast<std::uint64_t>(random()) << 32) | random());
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string name = prefix;
  for (int i = 0; i < 12; ++i) name.push_back(kAlphabet[generator() % 36]);
  return name;
}

}  // namespace ssp::harness
