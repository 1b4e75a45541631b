// AVX2 three-card batch kernel; compiled with -mavx2, called only after the
// CPU check (kernels.hpp).
#include <immintrin.h>

#include "avx2_loads.hpp"
#include "kernels.hpp"

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

// The cards of kBlock hands (byte j: hand j), each hand sorted, and a byte
// mask, 0xFF for each valid row.
struct SortedBlock {
  __m256i bottom, middle, top, valid;
};

inline SortedBlock sort_block(const Card* hands, __m256i last_card, const __m256i (&shuffle)[3][3]) {
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
  return {bottom, middle, top, _mm256_andnot_si256(repeated, in_pack)};
}

// The slots of a sorted block into `slots`, 0 where `keep` (a byte mask) is 0.
inline void store_slots(const SortedBlock& b, __m256i keep, std::uint16_t* slots) {
  for (int half = 0; half < 2; ++half) {
    const auto widen = [half](__m256i bytes) {
      return _mm256_cvtepu8_epi16(half ? _mm256_extracti128_si256(bytes, 1) : _mm256_castsi256_si128(bytes));
    };
    const __m256i keep_words =
        _mm256_cvtepi8_epi16(half ? _mm256_extracti128_si256(keep, 1) : _mm256_castsi256_si128(keep));
    const __m256i slot = _mm256_and_si256(keep_words, colex_slot(widen(b.bottom), widen(b.middle), widen(b.top)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(slots + 16 * half), slot);
  }
}

// Slots of kBlock hands at `hands` into `slots` (0 for invalid rows);
// returns the valid-row byte mask.
inline __m256i block_slots(const Card* hands, std::uint16_t* slots, __m256i last_card,
                           const __m256i (&shuffle)[3][3]) {
  const SortedBlock b = sort_block(hands, last_card, shuffle);
  store_slots(b, b.valid, slots);
  return b.valid;
}

// The seer's and the seen player's slots of kBlock rows, both 0 in a row
// that is invalid: either hand invalid, or a card in both (some card of one
// equal to some card of the other: nine byte compares).  Returns the
// valid-row byte mask.
inline __m256i see_block_slots(const Card* seer, const Card* seen, std::uint16_t* seer_slots,
                               std::uint16_t* seen_slots, __m256i last_card, const __m256i (&shuffle)[3][3]) {
  const SortedBlock a = sort_block(seer, last_card, shuffle), b = sort_block(seen, last_card, shuffle);
  const __m256i a_cards[3] = {a.bottom, a.middle, a.top};
  __m256i shared = _mm256_setzero_si256();
  for (const __m256i card : a_cards) {
    shared = _mm256_or_si256(shared, _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(card, b.bottom),
                                                                      _mm256_cmpeq_epi8(card, b.middle)),
                                                     _mm256_cmpeq_epi8(card, b.top)));
  }
  const __m256i valid = _mm256_andnot_si256(shared, _mm256_and_si256(a.valid, b.valid));
  store_slots(a, valid, seer_slots);
  store_slots(b, valid, seen_slots);
  return valid;
}

// Loads the kernels' shuffle constants into registers.
struct Shuffles {
  __m256i of[3][3];
  Shuffles() {
    for (int k = 0; k < 3; ++k) {
      for (int v = 0; v < 3; ++v) {
        of[k][v] = _mm256_load_si256(reinterpret_cast<const __m256i*>(kDeinterleave.shuffle[k][v]));
      }
    }
  }
};

}  // namespace

bool evaluate_rows_avx2(const Card* hands, std::size_t rows, Strength* out,
                        const KernelTables& tables) noexcept {
  const Shuffles shuffles;
  const auto& shuffle = shuffles.of;
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

// As evaluate_rows_avx2, both hands' slots of a chunk first, then their
// strengths into two small arrays and a vector compare of those: sixteen
// outcomes a compare, the only bytes written to the output.
bool showdown_rows_avx2(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out,
                        const KernelTables& tables) noexcept {
  const Shuffles shuffles;
  const __m256i last_card = _mm256_set1_epi8(static_cast<char>(tables.pack - 1));
  const __m256i one = _mm256_set1_epi8(1);
  alignas(32) std::uint16_t seer_slots[kChunk], seen_slots[kChunk];
  alignas(32) Strength seer_strengths[kChunk], seen_strengths[kChunk];
  __m256i all_valid = _mm256_set1_epi8(-1);
  std::size_t done = 0;
  while (rows - done >= kBlock) {
    const std::size_t whole = (rows - done) / kBlock * kBlock;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;  // (no std::min: see kernels.hpp)
    for (std::size_t j = 0; j < chunk; j += kBlock) {
      prefetch_input(seer, 3 * (done + j + kPrefetch), 3 * kBlock);
      prefetch_input(seen, 3 * (done + j + kPrefetch), 3 * kBlock);
      all_valid = _mm256_and_si256(all_valid, see_block_slots(seer + 3 * (done + j), seen + 3 * (done + j),
                                                              seer_slots + j, seen_slots + j, last_card,
                                                              shuffles.of));
    }
    lookup_slots(seer_slots, chunk, seer_strengths, tables.strengths);
    lookup_slots(seen_slots, chunk, seen_strengths, tables.strengths);
    // Strengths are below 2^15, so the signed word compare is exact; the
    // pack's lane crossing is undone by the 64-bit permute.
    for (std::size_t j = 0; j < chunk; j += kBlock) {
      const auto words = [](const Strength* at) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(at)); };
      const __m256i low = _mm256_cmpgt_epi16(words(seer_strengths + j), words(seen_strengths + j));
      const __m256i high = _mm256_cmpgt_epi16(words(seer_strengths + j + 16), words(seen_strengths + j + 16));
      const __m256i wins = _mm256_permute4x64_epi64(_mm256_packs_epi16(low, high), 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + done + j), _mm256_and_si256(wins, one));
    }
    done += chunk;
  }
  const bool tail_bad = showdown_rows_scalar(seer + 3 * done, seen + 3 * done, rows - done, out + done, tables);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

void streaming_floor_avx2(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept {
  streaming_floor_rows(hands, rows, out);
}

}  // namespace prial
