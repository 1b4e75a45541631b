// AVX-512 (F, BW, VBMI) three-card batch kernel; compiled with -mavx512*,
// called only after the CPU check (kernels.hpp).  Two paths, 64 hands a
// vector pass: rulesets without wild cards look strengths up in registers
// from the table's by-rank copy (block_by_rank); the others compute colex
// slots and load table[slot] with scalar loads (block_slots, lookup_slots).
#include <immintrin.h>

#include "kernels.hpp"

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

// The cards of kBlock hands, each hand sorted, and the mask of valid rows.
struct SortedBlock {
  __m512i bottom, middle, top;
  __mmask64 valid;
};

inline SortedBlock sort_block(const Card* hands, __m512i pack_v, const __m512i (&index)[6]) {
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
  return {bottom, middle, top, valid};
}

// 32 bytes of a 64-byte vector (half 0 or 1) widened to 16-bit lanes.
inline __m512i widen(__m512i bytes, int half) {
  return _mm512_cvtepu8_epi16(half ? _mm512_extracti64x4_epi64(bytes, 1) : _mm512_castsi512_si256(bytes));
}

// Slots of kBlock hands into `slots` (0 for invalid rows); returns the mask
// of valid rows.  The colex column terms come from 64-entry word permutes
// (indices use 6 bits, so any byte is safe).
inline __mmask64 block_slots(const Card* hands, std::uint16_t* slots, __m512i pack_v,
                             const __m512i (&index)[6], const __m512i (&colex)[4]) {
  const SortedBlock b = sort_block(hands, pack_v, index);
  for (int half = 0; half < 2; ++half) {
    const __m512i partial = _mm512_add_epi16(widen(b.bottom, half),
                                             _mm512_permutex2var_epi16(colex[0], widen(b.middle, half), colex[1]));
    const __m512i slot = _mm512_maskz_add_epi16(static_cast<__mmask32>(b.valid >> (32 * half)), partial,
                                                _mm512_permutex2var_epi16(colex[2], widen(b.top, half), colex[3]));
    _mm512_storeu_si512(slots + 32 * half, slot);
  }
  return b.valid;
}

// Rank-multiset terms of rank_index() for ranks below 32: C(r+1, 2), C(r+2, 3).
struct RankColumns {
  std::uint16_t pairs[32]{}, triples[32]{};
  constexpr RankColumns() {
    for (unsigned r = 0; r < 32; ++r) {
      pairs[r] = static_cast<std::uint16_t>((r + 1) * r / 2);
      triples[r] = static_cast<std::uint16_t>((r + 2) * (r + 1) * r / 6);
    }
  }
};
constexpr RankColumns kRankColumns{};

// Byte interleave of the low and high strength bytes into 16-bit words.
struct Interleave {
  alignas(64) std::uint8_t index[2][64]{};
  constexpr Interleave() {
    for (int half = 0; half < 2; ++half) {
      for (int j = 0; j < 32; ++j) {
        index[half][2 * j] = static_cast<std::uint8_t>(32 * half + j);
        index[half][2 * j + 1] = static_cast<std::uint8_t>(64 + 32 * half + j);
      }
    }
  }
};
constexpr Interleave kInterleave{};

struct RankLookup {
  __m512i pairs, triples, suited_offset, interleave[2];
  const std::uint8_t* low;
  const std::uint8_t* high;
};

// Strengths of kBlock hands straight into `out` with no memory load per hand:
// rank_index() of each hand, then the strength bytes from the eight
// 128-byte segments of the by-rank tables through byte permutes (the index
// uses 7 bits; rows whose segment is none of 0..7 are invalid and get 0).
inline __mmask64 block_by_rank(const Card* hands, Strength* out, __m512i pack_v, const __m512i (&index)[6],
                               const RankLookup& by_rank) {
  const SortedBlock b = sort_block(hands, pack_v, index);
  const __m512i rank_mask = _mm512_set1_epi8(0x3f), suit_mask = _mm512_set1_epi8(3);
  const auto rank = [&](__m512i cards) { return _mm512_and_si512(_mm512_srli_epi16(cards, 2), rank_mask); };
  const __m512i suit0 = _mm512_and_si512(b.bottom, suit_mask), suit1 = _mm512_and_si512(b.middle, suit_mask),
                suit2 = _mm512_and_si512(b.top, suit_mask);
  const __mmask64 suited = _mm512_cmpeq_epi8_mask(suit0, suit1) & _mm512_cmpeq_epi8_mask(suit1, suit2);
  const __m512i r0 = rank(b.bottom), r1 = rank(b.middle), r2 = rank(b.top);
  __m256i low7[2], segment[2];
  for (int half = 0; half < 2; ++half) {
    __m512i idx = _mm512_add_epi16(widen(r0, half), _mm512_permutexvar_epi16(widen(r1, half), by_rank.pairs));
    idx = _mm512_add_epi16(idx, _mm512_permutexvar_epi16(widen(r2, half), by_rank.triples));
    idx = _mm512_mask_add_epi16(idx, static_cast<__mmask32>(suited >> (32 * half)), idx, by_rank.suited_offset);
    low7[half] = _mm512_cvtepi16_epi8(idx);
    segment[half] = _mm512_cvtepi16_epi8(_mm512_srli_epi16(idx, 7));
  }
  const __m512i at = _mm512_inserti64x4(_mm512_castsi256_si512(low7[0]), low7[1], 1);
  const __m512i seg = _mm512_inserti64x4(_mm512_castsi256_si512(segment[0]), segment[1], 1);
  __m512i low = _mm512_setzero_si512(), high = _mm512_setzero_si512();
  for (int s = 0; s < 8; ++s) {
    const __mmask64 here = _mm512_cmpeq_epi8_mask(seg, _mm512_set1_epi8(static_cast<char>(s)));
    const std::uint8_t* lo_table = by_rank.low + 128 * s;
    const std::uint8_t* hi_table = by_rank.high + 128 * s;
    low = _mm512_mask_mov_epi8(low, here, _mm512_permutex2var_epi8(_mm512_loadu_si512(lo_table), at,
                                                                   _mm512_loadu_si512(lo_table + 64)));
    high = _mm512_mask_mov_epi8(high, here, _mm512_permutex2var_epi8(_mm512_loadu_si512(hi_table), at,
                                                                     _mm512_loadu_si512(hi_table + 64)));
  }
  _mm512_storeu_si512(out, _mm512_permutex2var_epi8(low, by_rank.interleave[0], high));
  _mm512_storeu_si512(out + 32, _mm512_permutex2var_epi8(low, by_rank.interleave[1], high));
  return b.valid;
}

}  // namespace

bool evaluate_rows_avx512(const Card* hands, std::size_t rows, Strength* out,
                          const KernelTables& tables) noexcept {
  const __m512i index[6] = {
      _mm512_load_si512(kDeinterleave.first_two[0]), _mm512_load_si512(kDeinterleave.first_two[1]),
      _mm512_load_si512(kDeinterleave.first_two[2]), _mm512_load_si512(kDeinterleave.third[0]),
      _mm512_load_si512(kDeinterleave.third[1]),     _mm512_load_si512(kDeinterleave.third[2])};
  const __m512i pack_v = _mm512_set1_epi8(static_cast<char>(tables.pack));
  __mmask64 all_valid = ~__mmask64{0};
  std::size_t done = 0;
  if (tables.by_rank_low != nullptr) {
    const RankLookup by_rank{_mm512_loadu_si512(kRankColumns.pairs), _mm512_loadu_si512(kRankColumns.triples),
                             _mm512_set1_epi16(static_cast<short>(kSuitedOffset)),
                             {_mm512_load_si512(kInterleave.index[0]), _mm512_load_si512(kInterleave.index[1])},
                             tables.by_rank_low, tables.by_rank_high};
    for (; rows - done >= kBlock; done += kBlock) {
      prefetch_input(hands, 3 * (done + kPrefetch), 3 * kBlock);
      all_valid &= block_by_rank(hands + 3 * done, out + done, pack_v, index, by_rank);
    }
  } else {
    const __m512i colex[4] = {
        _mm512_loadu_si512(kColex.choose2), _mm512_loadu_si512(kColex.choose2 + 32),
        _mm512_loadu_si512(kColex.choose3), _mm512_loadu_si512(kColex.choose3 + 32)};
    alignas(64) std::uint16_t slots[kChunk];
    // Slots of a whole chunk first, then its table loads: the loads run at
    // full rate on scalar ports instead of waiting behind vector stores.
    while (rows - done >= kBlock) {
      const std::size_t whole = (rows - done) / kBlock * kBlock;
      const std::size_t chunk = whole < kChunk ? whole : kChunk;  // (no std::min: see kernels.hpp)
      for (std::size_t j = 0; j < chunk; j += kBlock) {
        prefetch_input(hands, 3 * (done + j + kPrefetch), 3 * kBlock);
        all_valid &= block_slots(hands + 3 * (done + j), slots + j, pack_v, index, colex);
      }
      lookup_slots(slots, chunk, out + done, tables.strengths);
      done += chunk;
    }
  }
  const bool tail_bad = evaluate_rows_scalar(hands + 3 * done, rows - done, out + done, tables);
  return tail_bad || all_valid != ~__mmask64{0};
}

void streaming_floor_avx512(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept {
  streaming_floor_rows(hands, rows, out);
}

}  // namespace prial
