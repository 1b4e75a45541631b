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

  // Exactly uniform in [0, n), by rejection: for dealing cards.
  std::uint32_t below(std::uint32_t n) noexcept {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t x;
    do x = next(); while (x >= limit);
    return static_cast<std::uint32_t>(x % n);
  }

  // Uniform in [0, n) up to a bias below 2^-32, by one multiply: fine for
  // a sampled model, and cheaper.
  unsigned below_roughly(unsigned n) noexcept { return static_cast<unsigned>(((next() >> 32) * n) >> 32); }
};

}  // namespace prial
