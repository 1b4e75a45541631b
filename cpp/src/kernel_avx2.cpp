// AVX2 three-card batch kernel; compiled with -mavx2, called only after the
// CPU check (kernels.hpp).
#include <immintrin.h>

#include "prial/kernels.hpp"

namespace prial {
namespace {

constexpr std::size_t kBlock = 32;    // hands per vector pass: 96 input bytes
constexpr std::size_t kChunk = 256;   // hands whose slots are computed before the table loads
constexpr std::size_t kPrefetch = 1024;  // hands ahead of the current block its input is prefetched

// Byte shuffles that gather byte k of each of 16 hands (48 bytes held in the
// same 128-bit lane of three vectors) into one lane; 0x80 writes zero.
struct Deinterleave {
  alignas(32) std::uint8_t shuffle[3][3][32]{};  // [byte k][source vector][lane byte]
  constexpr Deinterleave() {
    for (int k = 0; k < 3; ++k) {
      for (int v = 0; v < 3; ++v) {
        for (int j = 0; j < 32; ++j) {
          const int at = 3 * (j % 16) + k;  // byte of this lane's 48
          shuffle[k][v][j] = static_cast<std::uint8_t>(at / 16 == v ? at % 16 : 0x80);
        }
      }
    }
  }
};
constexpr Deinterleave kDeinterleave{};

// (Two loads and an insert rather than _mm256_loadu2_m128i, which some
// compilers' headers lack; the instructions are the same.)
inline __m256i load_lanes(const Card* low, const Card* high) {
  const __m128i low_lane = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low));
  const __m128i high_lane = _mm_loadu_si128(reinterpret_cast<const __m128i*>(high));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(low_lane), high_lane, 1);
}

// Colex slot of 16 hands from their sorted cards in 16-bit lanes:
// C(m,2) = m(m-1)/2 and C(t,3) = C(t,2)(t-2)/3, the exact division by 3 done
// as a product with 3's inverse modulo 2^16 (the result is below 2^16).
inline __m256i colex_slot(__m256i bottom, __m256i middle, __m256i top) {
  const __m256i one = _mm256_set1_epi16(1), two = _mm256_set1_epi16(2);
  const __m256i middle_pairs = _mm256_srli_epi16(_mm256_mullo_epi16(middle, _mm256_sub_epi16(middle, one)), 1);
  const __m256i top_pairs = _mm256_srli_epi16(_mm256_mullo_epi16(top, _mm256_sub_epi16(top, one)), 1);
  const __m256i top_triples = _mm256_mullo_epi16(_mm256_mullo_epi16(top_pairs, _mm256_sub_epi16(top, two)),
                                                 _mm256_set1_epi16(static_cast<short>(0xAAAB)));
  return _mm256_add_epi16(_mm256_add_epi16(bottom, middle_pairs), top_triples);
}

// Slots of kBlock hands at `hands` into `slots` (0 for invalid rows);
// returns a byte mask, 0xFF for each valid row.
inline __m256i block_slots(const Card* hands, std::uint16_t* slots, __m256i last_card,
                           const __m256i (&shuffle)[3][3]) {
  // Lane 0 holds hands 0..15, lane 1 hands 16..31: after the in-lane
  // shuffles the cards come out in row order.
  const __m256i v[3] = {load_lanes(hands, hands + 48), load_lanes(hands + 16, hands + 64),
                        load_lanes(hands + 32, hands + 80)};
  __m256i card[3];
  for (int k = 0; k < 3; ++k) {
    card[k] = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(v[0], shuffle[k][0]),
                                              _mm256_shuffle_epi8(v[1], shuffle[k][1])),
                              _mm256_shuffle_epi8(v[2], shuffle[k][2]));
  }
  const __m256i lo = _mm256_min_epu8(card[0], card[1]), hi = _mm256_max_epu8(card[0], card[1]);
  const __m256i top = _mm256_max_epu8(hi, card[2]), upper = _mm256_min_epu8(hi, card[2]);
  const __m256i bottom = _mm256_min_epu8(lo, upper), middle = _mm256_max_epu8(lo, upper);
  // Sorted, so distinct means no neighbours equal; top < pack means
  // max(top, pack - 1) == pack - 1.
  const __m256i repeated = _mm256_or_si256(_mm256_cmpeq_epi8(bottom, middle), _mm256_cmpeq_epi8(middle, top));
  const __m256i in_pack = _mm256_cmpeq_epi8(_mm256_max_epu8(top, last_card), last_card);
  const __m256i valid = _mm256_andnot_si256(repeated, in_pack);
  for (int half = 0; half < 2; ++half) {
    const auto widen = [half](__m256i bytes) {
      return _mm256_cvtepu8_epi16(half ? _mm256_extracti128_si256(bytes, 1) : _mm256_castsi256_si128(bytes));
    };
    const __m256i keep = _mm256_cvtepi8_epi16(half ? _mm256_extracti128_si256(valid, 1) : _mm256_castsi256_si128(valid));
    const __m256i slot = _mm256_and_si256(keep, colex_slot(widen(bottom), widen(middle), widen(top)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(slots + 16 * half), slot);
  }
  return valid;
}

}  // namespace

bool evaluate_rows_avx2(const Card* hands, std::size_t rows, Strength* out,
                        const KernelTables& tables) noexcept {
  __m256i shuffle[3][3];
  for (int k = 0; k < 3; ++k) {
    for (int v = 0; v < 3; ++v) {
      shuffle[k][v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(kDeinterleave.shuffle[k][v]));
    }
  }
  const __m256i last_card = _mm256_set1_epi8(static_cast<char>(tables.pack - 1));
  alignas(32) std::uint16_t slots[kChunk];
  __m256i all_valid = _mm256_set1_epi8(-1);
  std::size_t done = 0;
  // Slots of a whole chunk first, then its table loads (see kernel_avx512.cpp).
  while (rows - done >= kBlock) {
    const std::size_t whole = (rows - done) / kBlock * kBlock;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;  // (no std::min: see kernels.hpp)
    for (std::size_t j = 0; j < chunk; j += kBlock) {
      prefetch_input(hands, 3 * (done + j + kPrefetch), 3 * kBlock);
      all_valid = _mm256_and_si256(all_valid, block_slots(hands + 3 * (done + j), slots + j, last_card, shuffle));
    }
    lookup_slots(slots, chunk, out + done, tables.strengths);
    done += chunk;
  }
  const bool tail_bad = evaluate_rows_scalar(hands + 3 * done, rows - done, out + done, tables);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

}  // namespace prial
