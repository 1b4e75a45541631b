// AVX2 best-of kernels for four and five cards; compiled with -mavx2, called
// only after the CPU check (bestof.cpp, kernels.hpp).  One 32-bit lane a
// hand, eight hands a vector: four-card hands are one load, five-card hands
// two gathers.  The slot is computed arithmetically, the keys loaded scalar.
#include <immintrin.h>

#include "prial/bestof.hpp"

namespace prial {
namespace {

constexpr std::size_t kLanes = 8;    // hands per vector
constexpr std::size_t kChunk = 256;  // hands whose slots are computed before the table loads

inline void compare_swap(__m256i& a, __m256i& b) {
  const __m256i lo = _mm256_min_epu32(a, b);
  b = _mm256_max_epu32(a, b);
  a = lo;
}

// C(m, 2), C(t, 3), C(t, 4) in 32-bit lanes for any byte value (t up to
// 255 stays below 2^32 throughout); the exact division by 3 is a product
// with 3's inverse modulo 2^32, the division by 4 a shift.
inline __m256i choose2(__m256i m) {
  return _mm256_srli_epi32(_mm256_mullo_epi32(m, _mm256_sub_epi32(m, _mm256_set1_epi32(1))), 1);
}
inline __m256i choose3(__m256i t, __m256i t_choose2) {
  return _mm256_mullo_epi32(_mm256_mullo_epi32(t_choose2, _mm256_sub_epi32(t, _mm256_set1_epi32(2))),
                            _mm256_set1_epi32(static_cast<int>(0xAAAAAAABu)));
}
inline __m256i choose4(__m256i t, __m256i t_choose3) {
  return _mm256_srli_epi32(_mm256_mullo_epi32(t_choose3, _mm256_sub_epi32(t, _mm256_set1_epi32(3))), 2);
}
// Exact for t <= 55 (C(55,4) * 51 < 2^32); larger t only occur in rows
// that are rejected and masked anyway.
inline __m256i choose5(__m256i t, __m256i t_choose4) {
  return _mm256_mullo_epi32(_mm256_mullo_epi32(t_choose4, _mm256_sub_epi32(t, _mm256_set1_epi32(4))),
                            _mm256_set1_epi32(static_cast<int>(0xCCCCCCCDu)));
}

// The loop both widths share: `slots_of(hand, valid)` gives the colex slots
// of the eight hands starting at `hand` and sets `valid` per lane; slots of
// invalid lanes are masked to 0 so the table loads stay in range.  Keys are
// loaded scalar a chunk at a time; the tail goes to the portable kernel.
template <std::size_t Width, class SlotsOf>
bool best_of_rows(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table, unsigned pack,
                  SlotsOf slots_of) noexcept {
  alignas(32) std::uint32_t slots[kChunk];
  __m256i all_valid = _mm256_set1_epi32(-1);
  std::size_t done = 0;
  while (rows - done >= kLanes) {
    const std::size_t whole = (rows - done) / kLanes * kLanes;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;
    for (std::size_t j = 0; j < chunk; j += kLanes) {
      __m256i valid;
      const __m256i slot = slots_of(hands + Width * (done + j), valid);
      _mm256_store_si256(reinterpret_cast<__m256i*>(slots + j), _mm256_and_si256(slot, valid));
      all_valid = _mm256_and_si256(all_valid, valid);
    }
    for (std::size_t j = 0; j < chunk; ++j) out[done + j] = table[slots[j]];
    done += chunk;
  }
  const bool tail_bad = best_of_rows_scalar(hands + Width * done, rows - done, Width, out + done, table, pack);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

}  // namespace

bool best_of_four_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            unsigned pack) noexcept {
  const __m256i byte = _mm256_set1_epi32(0xFF);
  const __m256i last_card = _mm256_set1_epi32(static_cast<int>(pack - 1));
  return best_of_rows<4>(hands, rows, out, table, pack, [&](const Card* hand, __m256i& valid) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hand));
    __m256i a = _mm256_and_si256(v, byte);
    __m256i b = _mm256_and_si256(_mm256_srli_epi32(v, 8), byte);
    __m256i c = _mm256_and_si256(_mm256_srli_epi32(v, 16), byte);
    __m256i d = _mm256_srli_epi32(v, 24);
    compare_swap(a, b); compare_swap(c, d);
    compare_swap(a, c); compare_swap(b, d);
    compare_swap(b, c);
    // Sorted, so distinct means no neighbours equal; d < pack means
    // max(d, pack - 1) == pack - 1.
    const __m256i repeated = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(a, b), _mm256_cmpeq_epi32(b, c)), _mm256_cmpeq_epi32(c, d));
    const __m256i in_pack = _mm256_cmpeq_epi32(_mm256_max_epu32(d, last_card), last_card);
    valid = _mm256_andnot_si256(repeated, in_pack);
    const __m256i c2 = choose2(c), d2 = choose2(d);
    const __m256i d3 = choose3(d, d2);
    return _mm256_add_epi32(_mm256_add_epi32(a, choose2(b)), _mm256_add_epi32(choose3(c, c2), choose4(d, d3)));
  });
}

bool best_of_five_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            unsigned pack) noexcept {
  const __m256i byte = _mm256_set1_epi32(0xFF);
  const __m256i last_card = _mm256_set1_epi32(static_cast<int>(pack - 1));
  const __m256i row_offsets = _mm256_setr_epi32(0, 5, 10, 15, 20, 25, 30, 35);
  return best_of_rows<5>(hands, rows, out, table, pack, [&](const Card* hand, __m256i& valid) {
    // Cards 0..3 of each hand, then cards 1..4 (the top byte is card 4):
    // both reads stay inside the 40 bytes of these eight hands.
    const auto* base = reinterpret_cast<const int*>(hand);
    const __m256i first = _mm256_i32gather_epi32(base, row_offsets, 1);
    const __m256i second = _mm256_i32gather_epi32(reinterpret_cast<const int*>(hand + 1), row_offsets, 1);
    __m256i a = _mm256_and_si256(first, byte);
    __m256i b = _mm256_and_si256(_mm256_srli_epi32(first, 8), byte);
    __m256i c = _mm256_and_si256(_mm256_srli_epi32(first, 16), byte);
    __m256i d = _mm256_srli_epi32(first, 24);
    __m256i e = _mm256_srli_epi32(second, 24);
    // Optimal 9-comparator network for five inputs.
    compare_swap(a, b); compare_swap(d, e);
    compare_swap(c, e); compare_swap(c, d);
    compare_swap(b, e); compare_swap(a, d);
    compare_swap(a, c); compare_swap(b, d);
    compare_swap(b, c);
    const __m256i repeated = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(a, b), _mm256_cmpeq_epi32(b, c)),
        _mm256_or_si256(_mm256_cmpeq_epi32(c, d), _mm256_cmpeq_epi32(d, e)));
    const __m256i in_pack = _mm256_cmpeq_epi32(_mm256_max_epu32(e, last_card), last_card);
    valid = _mm256_andnot_si256(repeated, in_pack);
    const __m256i c2 = choose2(c), d2 = choose2(d), e2 = choose2(e);
    const __m256i d3 = choose3(d, d2), e3 = choose3(e, e2);
    const __m256i e4 = choose4(e, e3);
    return _mm256_add_epi32(
        _mm256_add_epi32(_mm256_add_epi32(a, choose2(b)), _mm256_add_epi32(choose3(c, c2), choose4(d, d3))),
        choose5(e, e4));
  });
}

}  // namespace prial
