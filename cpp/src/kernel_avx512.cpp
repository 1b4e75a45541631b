// AVX-512 (F, BW, VBMI) three-card batch kernel; compiled with -mavx512*,
// called only after the CPU check (kernels.hpp).
#include <immintrin.h>

#include "prial/kernels.hpp"

namespace prial {
namespace {

constexpr std::size_t kBlock = 64;    // hands per vector pass: 192 input bytes
constexpr std::size_t kChunk = 256;   // hands whose slots are computed before the table loads
constexpr std::size_t kPrefetch = 1024;  // hands ahead of the current block its input is prefetched

// Byte-permute indices that gather byte k of every hand (k = 0, 1, 2) from
// the 192 bytes of a block: positions below 128 from the first two vectors,
// the rest (selected by `from_third`) from the third.
struct Deinterleave {
  alignas(64) std::uint8_t first_two[3][64]{};
  alignas(64) std::uint8_t third[3][64]{};
  std::uint64_t from_third[3]{};
  constexpr Deinterleave() {
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 64; ++j) {
        const int at = 3 * j + k;
        if (at < 128) {
          first_two[k][j] = static_cast<std::uint8_t>(at);
        } else {
          third[k][j] = static_cast<std::uint8_t>(at - 128);
          from_third[k] |= std::uint64_t{1} << j;
        }
      }
    }
  }
};
constexpr Deinterleave kDeinterleave{};

// Slots of kBlock hands at `hands` into `slots`; returns the mask of valid rows.
inline __mmask64 block_slots(const Card* hands, std::uint16_t* slots, __m512i pack_v,
                             const __m512i (&index)[6], const __m512i (&colex)[4]) {
  const __m512i v0 = _mm512_loadu_si512(hands), v1 = _mm512_loadu_si512(hands + 64),
                v2 = _mm512_loadu_si512(hands + 128);
  __m512i card[3];
  for (int k = 0; k < 3; ++k) {
    card[k] = _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(v0, index[k], v1),
                                           kDeinterleave.from_third[k], index[3 + k], v2);
  }
  // Sorting network on the card bytes of 64 hands at once.
  const __m512i lo = _mm512_min_epu8(card[0], card[1]), hi = _mm512_max_epu8(card[0], card[1]);
  const __m512i top = _mm512_max_epu8(hi, card[2]), upper = _mm512_min_epu8(hi, card[2]);
  const __m512i bottom = _mm512_min_epu8(lo, upper), middle = _mm512_max_epu8(lo, upper);
  const __mmask64 valid = _mm512_cmplt_epu8_mask(bottom, middle) &
                          _mm512_cmplt_epu8_mask(middle, top) & _mm512_cmplt_epu8_mask(top, pack_v);
  // Colex slot in 16-bit lanes, 32 hands at a time; the column terms come
  // from 64-entry word permutes (indices use 6 bits, so any byte is safe) and
  // invalid rows get slot 0.
  for (int half = 0; half < 2; ++half) {
    const auto widen = [half](__m512i bytes) {
      return _mm512_cvtepu8_epi16(half ? _mm512_extracti64x4_epi64(bytes, 1) : _mm512_castsi512_si256(bytes));
    };
    const __m512i partial =
        _mm512_add_epi16(widen(bottom), _mm512_permutex2var_epi16(colex[0], widen(middle), colex[1]));
    const __m512i slot = _mm512_maskz_add_epi16(static_cast<__mmask32>(valid >> (32 * half)), partial,
                                                _mm512_permutex2var_epi16(colex[2], widen(top), colex[3]));
    _mm512_storeu_si512(slots + 32 * half, slot);
  }
  return valid;
}

}  // namespace

bool evaluate_rows_avx512(const Card* hands, std::size_t rows, Strength* out,
                          const Strength* table, unsigned pack) noexcept {
  const __m512i index[6] = {
      _mm512_load_si512(kDeinterleave.first_two[0]), _mm512_load_si512(kDeinterleave.first_two[1]),
      _mm512_load_si512(kDeinterleave.first_two[2]), _mm512_load_si512(kDeinterleave.third[0]),
      _mm512_load_si512(kDeinterleave.third[1]),     _mm512_load_si512(kDeinterleave.third[2])};
  const __m512i colex[4] = {
      _mm512_loadu_si512(kColex.choose2), _mm512_loadu_si512(kColex.choose2 + 32),
      _mm512_loadu_si512(kColex.choose3), _mm512_loadu_si512(kColex.choose3 + 32)};
  const __m512i pack_v = _mm512_set1_epi8(static_cast<char>(pack));
  alignas(64) std::uint16_t slots[kChunk];
  __mmask64 all_valid = ~__mmask64{0};
  std::size_t done = 0;
  // Slots of a whole chunk first, then its table loads: the loads run at
  // full rate on scalar ports instead of waiting behind vector stores.
  while (rows - done >= kBlock) {
    const std::size_t whole = (rows - done) / kBlock * kBlock;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;  // (no std::min: see kernels.hpp)
    for (std::size_t j = 0; j < chunk; j += kBlock) {
      prefetch_input(hands, 3 * (done + j + kPrefetch), 3 * kBlock);
      all_valid &= block_slots(hands + 3 * (done + j), slots + j, pack_v, index, colex);
    }
    lookup_slots(slots, chunk, out + done, table);
    done += chunk;
  }
  const bool tail_bad = evaluate_rows_scalar(hands + 3 * done, rows - done, out + done, table, pack);
  return tail_bad || all_valid != ~__mmask64{0};
}

}  // namespace prial
