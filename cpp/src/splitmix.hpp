// SplitMix64: the one small, portable generator of the core.  Seeded
// results depend on its exact stream and on which way a bounded draw is
// made, so both ways are kept, each named for what it does.
#pragma once

#include <cstdint>

namespace prial {

struct SplitMix64 {
  std::uint64_t state;

  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Exactly uniform in [0, n), by rejection on the remainder: for the
  // sampled deals of odds.
  std::uint32_t below(std::uint32_t n) noexcept {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t x;
    do x = next(); while (x >= limit);
    return static_cast<std::uint32_t>(x % n);
  }

  // Exactly uniform in [0, n), by a multiply and a rejection that is
  // almost never taken (Lemire): for the table's pack, dealt often.
  std::uint32_t below_by_multiply(std::uint32_t n) noexcept {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
    if (static_cast<std::uint32_t>(m) < n) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (static_cast<std::uint32_t>(m) < threshold)
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // Uniform in [0, n) up to a bias below 2^-32, by one multiply: fine for
  // a sampled model, and cheaper.
  unsigned below_roughly(unsigned n) noexcept { return static_cast<unsigned>(((next() >> 32) * n) >> 32); }
};

}  // namespace prial
