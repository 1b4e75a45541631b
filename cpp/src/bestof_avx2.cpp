// AVX2 best-of kernels for four and five cards, and the see kernels that
// compare two such hands a row; compiled with -mavx2, called only after the
// CPU check (bestof.cpp, kernels.hpp).  One 32-bit lane a hand, eight hands
// a vector: four-card hands are one load, five-card hands two gathers.  The
// slot is computed arithmetically, the keys loaded scalar.
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

// What a vector pass gives for eight hands: their colex slots, a 32-bit
// mask per lane (all ones for a valid hand), and each hand's card set as
// two 32-bit halves (cards 0..31, 32..63; a byte of 64 or more sets no bit,
// and its hand is invalid anyway), for the see kernels' shared-card check.
struct LaneSlots {
  __m256i slot, valid, low_cards, high_cards;
};

inline void add_card(LaneSlots& lanes, __m256i card) {
  const __m256i one = _mm256_set1_epi32(1);
  lanes.low_cards = _mm256_or_si256(lanes.low_cards, _mm256_sllv_epi32(one, card));
  lanes.high_cards = _mm256_or_si256(lanes.high_cards, _mm256_sllv_epi32(one, _mm256_sub_epi32(card, _mm256_set1_epi32(32))));
}

// Sorted, so distinct means no neighbours equal; the top card < pack means
// max(top, pack - 1) == pack - 1.
template <std::size_t Width>
inline __m256i sorted_valid(const __m256i (&c)[Width], __m256i last_card) {
  __m256i repeated = _mm256_cmpeq_epi32(c[0], c[1]);
  for (std::size_t i = 1; i + 1 < Width; ++i) repeated = _mm256_or_si256(repeated, _mm256_cmpeq_epi32(c[i], c[i + 1]));
  const __m256i in_pack = _mm256_cmpeq_epi32(_mm256_max_epu32(c[Width - 1], last_card), last_card);
  return _mm256_andnot_si256(repeated, in_pack);
}

// Eight four-card hands: one load.
inline LaneSlots four_lanes(const Card* hand, __m256i last_card) {
  const __m256i byte = _mm256_set1_epi32(0xFF);
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hand));
  __m256i c[4] = {_mm256_and_si256(v, byte), _mm256_and_si256(_mm256_srli_epi32(v, 8), byte),
                  _mm256_and_si256(_mm256_srli_epi32(v, 16), byte), _mm256_srli_epi32(v, 24)};
  LaneSlots lanes{{}, {}, _mm256_setzero_si256(), _mm256_setzero_si256()};
  for (const __m256i card : c) add_card(lanes, card);
  compare_swap(c[0], c[1]); compare_swap(c[2], c[3]);
  compare_swap(c[0], c[2]); compare_swap(c[1], c[3]);
  compare_swap(c[1], c[2]);
  lanes.valid = sorted_valid(c, last_card);
  const __m256i c2 = choose2(c[2]), d2 = choose2(c[3]);
  const __m256i d3 = choose3(c[3], d2);
  lanes.slot = _mm256_add_epi32(_mm256_add_epi32(c[0], choose2(c[1])), _mm256_add_epi32(choose3(c[2], c2), choose4(c[3], d3)));
  return lanes;
}

// Eight five-card hands: cards 0..3 of each, then cards 1..4 (the top byte
// is card 4); both reads stay inside the 40 bytes of these eight hands.
inline LaneSlots five_lanes(const Card* hand, __m256i last_card) {
  const __m256i byte = _mm256_set1_epi32(0xFF);
  const __m256i row_offsets = _mm256_setr_epi32(0, 5, 10, 15, 20, 25, 30, 35);
  const __m256i first = _mm256_i32gather_epi32(reinterpret_cast<const int*>(hand), row_offsets, 1);
  const __m256i second = _mm256_i32gather_epi32(reinterpret_cast<const int*>(hand + 1), row_offsets, 1);
  __m256i c[5] = {_mm256_and_si256(first, byte), _mm256_and_si256(_mm256_srli_epi32(first, 8), byte),
                  _mm256_and_si256(_mm256_srli_epi32(first, 16), byte), _mm256_srli_epi32(first, 24),
                  _mm256_srli_epi32(second, 24)};
  LaneSlots lanes{{}, {}, _mm256_setzero_si256(), _mm256_setzero_si256()};
  for (const __m256i card : c) add_card(lanes, card);
  // Optimal 9-comparator network for five inputs.
  compare_swap(c[0], c[1]); compare_swap(c[3], c[4]);
  compare_swap(c[2], c[4]); compare_swap(c[2], c[3]);
  compare_swap(c[1], c[4]); compare_swap(c[0], c[3]);
  compare_swap(c[0], c[2]); compare_swap(c[1], c[3]);
  compare_swap(c[1], c[2]);
  lanes.valid = sorted_valid(c, last_card);
  const __m256i c2 = choose2(c[2]), d2 = choose2(c[3]), e2 = choose2(c[4]);
  const __m256i d3 = choose3(c[3], d2), e3 = choose3(c[4], e2);
  const __m256i e4 = choose4(c[4], e3);
  lanes.slot = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_add_epi32(c[0], choose2(c[1])), _mm256_add_epi32(choose3(c[2], c2), choose4(c[3], d3))),
      choose5(c[4], e4));
  return lanes;
}

template <std::size_t Width>
inline LaneSlots lanes_of(const Card* hand, __m256i last_card) {
  if constexpr (Width == 4) {
    return four_lanes(hand, last_card);
  } else {
    return five_lanes(hand, last_card);
  }
}

// Slots of invalid lanes are masked to 0 so the table loads stay in range.
// Keys are loaded scalar a chunk at a time; the tail goes to the portable
// kernel.
template <std::size_t Width>
bool best_of_rows(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table, unsigned pack) noexcept {
  const __m256i last_card = _mm256_set1_epi32(static_cast<int>(pack - 1));
  alignas(32) std::uint32_t slots[kChunk];
  __m256i all_valid = _mm256_set1_epi32(-1);
  std::size_t done = 0;
  while (rows - done >= kLanes) {
    const std::size_t whole = (rows - done) / kLanes * kLanes;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;
    for (std::size_t j = 0; j < chunk; j += kLanes) {
      const LaneSlots lanes = lanes_of<Width>(hands + Width * (done + j), last_card);
      _mm256_store_si256(reinterpret_cast<__m256i*>(slots + j), _mm256_and_si256(lanes.slot, lanes.valid));
      all_valid = _mm256_and_si256(all_valid, lanes.valid);
    }
    for (std::size_t j = 0; j < chunk; ++j) out[done + j] = table[slots[j]];
    done += chunk;
  }
  const bool tail_bad = best_of_rows_scalar(hands + Width * done, rows - done, Width, out + done, table, pack);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

// The see kernels: both hands of eight rows in one pass, a row valid when
// both hands are and their card sets are disjoint; then the keys of a chunk
// compared as they are loaded, the outcome the only store.
template <std::size_t Width>
bool best_of_see_rows(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out, const BestKey* table,
                      unsigned pack) noexcept {
  const __m256i last_card = _mm256_set1_epi32(static_cast<int>(pack - 1));
  const __m256i zero = _mm256_setzero_si256();
  alignas(32) std::uint32_t seer_slots[kChunk], seen_slots[kChunk];
  __m256i all_valid = _mm256_set1_epi32(-1);
  std::size_t done = 0;
  while (rows - done >= kLanes) {
    const std::size_t whole = (rows - done) / kLanes * kLanes;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;
    for (std::size_t j = 0; j < chunk; j += kLanes) {
      const LaneSlots a = lanes_of<Width>(seer + Width * (done + j), last_card);
      const LaneSlots b = lanes_of<Width>(seen + Width * (done + j), last_card);
      const __m256i common = _mm256_or_si256(_mm256_and_si256(a.low_cards, b.low_cards),
                                             _mm256_and_si256(a.high_cards, b.high_cards));
      const __m256i valid = _mm256_and_si256(_mm256_and_si256(a.valid, b.valid), _mm256_cmpeq_epi32(common, zero));
      _mm256_store_si256(reinterpret_cast<__m256i*>(seer_slots + j), _mm256_and_si256(a.slot, valid));
      _mm256_store_si256(reinterpret_cast<__m256i*>(seen_slots + j), _mm256_and_si256(b.slot, valid));
      all_valid = _mm256_and_si256(all_valid, valid);
    }
    for (std::size_t j = 0; j < chunk; ++j) {
      out[done + j] = static_cast<std::uint8_t>(table[seer_slots[j]] > table[seen_slots[j]]);
    }
    done += chunk;
  }
  const bool tail_bad =
      best_of_see_rows_scalar(seer + Width * done, seen + Width * done, rows - done, Width, out + done, table, pack);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

}  // namespace

bool best_of_four_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            unsigned pack) noexcept {
  return best_of_rows<4>(hands, rows, out, table, pack);
}

bool best_of_five_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            unsigned pack) noexcept {
  return best_of_rows<5>(hands, rows, out, table, pack);
}

bool best_of_see_rows_avx2(const Card* seer, const Card* seen, std::size_t rows, std::size_t width,
                           std::uint8_t* out, const BestKey* table, unsigned pack) noexcept {
  return width == 4 ? best_of_see_rows<4>(seer, seen, rows, out, table, pack)
                    : best_of_see_rows<5>(seer, seen, rows, out, table, pack);
}

}  // namespace prial
