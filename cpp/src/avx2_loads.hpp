// Loads shared by the AVX2 translation units, and only by them: `static`,
// so each keeps its own copy and none can be merged into code built for
// baseline x86-64 (kernels.hpp).
#pragma once

#include <immintrin.h>

#include "prial/cards.hpp"

namespace prial {

// Two 16-byte loads as the low and high lane of one vector (two loads and
// an insert rather than _mm256_loadu2_m128i, which some compilers' headers
// lack; the instructions are the same).
static inline __m256i load_lanes(const Card* low, const Card* high) {
  const __m128i low_lane = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low));
  const __m128i high_lane = _mm_loadu_si128(reinterpret_cast<const __m128i*>(high));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(low_lane), high_lane, 1);
}

}  // namespace prial
