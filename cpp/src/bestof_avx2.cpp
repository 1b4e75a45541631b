// AVX2 best-of kernels for four and five cards, and the see kernels that
// compare two such hands a row; compiled with -mavx2, called only after the
// CPU check (bestof.cpp, kernels.hpp).  One 32-bit lane a hand, eight hands
// a vector: four-card hands are one load, five-card hands two loads and byte
// shuffles.  The slot (colex, or by-rank when the ruleset has a by-rank
// table: bestof.hpp) is computed arithmetically, the keys loaded scalar.
#include <immintrin.h>

#include "avx2_loads.hpp"
#include "bestof_kernels.hpp"
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

// The colex rank of strictly increasing lanes t[0] < t[1] < ...
template <std::size_t Width>
inline __m256i colex_lanes(const __m256i (&t)[Width]) {
  const __m256i t2 = choose2(t[2]), u2 = choose2(t[3]);
  const __m256i u3 = choose3(t[3], u2);
  __m256i slot = _mm256_add_epi32(_mm256_add_epi32(t[0], choose2(t[1])), _mm256_add_epi32(choose3(t[2], t2), choose4(t[3], u3)));
  if constexpr (Width == 5) {
    const __m256i v3 = choose3(t[4], choose2(t[4]));
    slot = _mm256_add_epi32(slot, choose5(t[4], choose4(t[4], v3)));
  }
  return slot;
}

// The by-rank slot (bestof.hpp) of sorted cards: the suit pattern times
// the multiset count, plus the colex rank of rank_i + i.  Each lane
// first collects the places every suit holds, byte s for suit s; two
// 16-entry byte shuffles map each byte to its pattern id (bit 4 picks the
// table), and at most one byte of a lane is not 0, so their sum is the id.
template <std::size_t Width>
inline __m256i by_rank_lanes(const __m256i (&c)[Width]) {
  const __m256i three = _mm256_set1_epi32(3);
  __m256i t[Width];
  __m256i places = _mm256_setzero_si256();
  for (std::size_t i = 0; i < Width; ++i) {
    t[i] = _mm256_add_epi32(_mm256_srli_epi32(c[i], 2), _mm256_set1_epi32(static_cast<int>(i)));
    const __m256i suit_byte = _mm256_slli_epi32(_mm256_and_si256(c[i], three), 3);
    places = _mm256_or_si256(places, _mm256_sllv_epi32(_mm256_set1_epi32(1 << i), suit_byte));
  }
  const auto table = [](int from) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kSuitPattern.of_places + from)));
  };
  // Bytes below 32: the 16-bit shift moves each byte's bit 4 to its bit 7,
  // blendv's selector, and no bit across a byte.
  const __m256i ids = _mm256_blendv_epi8(_mm256_shuffle_epi8(table(0), places),
                                         _mm256_shuffle_epi8(table(16), places), _mm256_slli_epi16(places, 3));
  const __m256i pattern = _mm256_madd_epi16(_mm256_maddubs_epi16(ids, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
  const __m256i multisets = _mm256_set1_epi32(static_cast<int>(kSuitPattern.multisets[Width]));
  return _mm256_add_epi32(_mm256_mullo_epi32(pattern, multisets), colex_lanes(t));
}

// What a vector pass gives for eight hands: their slots, a 32-bit mask per
// lane (all ones for a valid hand), and what the see kernels' shared-card
// check reads: a four-card hand's own four bytes in `cards[0]`; a five-card
// hand's card set as two 32-bit halves (cards 0..31, 32..63; a byte of 64 or
// more sets no bit, and its hand is invalid anyway).
struct LaneSlots {
  __m256i slot, valid, cards[2];
};

inline void add_card(LaneSlots& lanes, __m256i card) {
  const __m256i one = _mm256_set1_epi32(1);
  lanes.cards[0] = _mm256_or_si256(lanes.cards[0], _mm256_sllv_epi32(one, card));
  lanes.cards[1] = _mm256_or_si256(lanes.cards[1], _mm256_sllv_epi32(one, _mm256_sub_epi32(card, _mm256_set1_epi32(32))));
}

// All ones in the lanes whose two hands share no card: for four cards, each
// byte of one hand against the other's bytes in four rotations (sixteen
// compares in four); for five, the AND of the card sets.
template <std::size_t Width>
inline __m256i disjoint(const LaneSlots& a, const LaneSlots& b) {
  const __m256i zero = _mm256_setzero_si256();
  if constexpr (Width == 4) {
    const __m256i rotate = _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
                                            1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
    __m256i other = b.cards[0];
    __m256i equal = _mm256_cmpeq_epi8(a.cards[0], other);
    for (int turn = 1; turn < 4; ++turn) {
      other = _mm256_shuffle_epi8(other, rotate);
      equal = _mm256_or_si256(equal, _mm256_cmpeq_epi8(a.cards[0], other));
    }
    return _mm256_cmpeq_epi32(equal, zero);
  } else {
    const __m256i common = _mm256_or_si256(_mm256_and_si256(a.cards[0], b.cards[0]),
                                           _mm256_and_si256(a.cards[1], b.cards[1]));
    return _mm256_cmpeq_epi32(common, zero);
  }
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
template <bool ByRank>
inline LaneSlots four_lanes(const Card* hand, __m256i last_card) {
  const __m256i byte = _mm256_set1_epi32(0xFF);
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hand));
  __m256i c[4] = {_mm256_and_si256(v, byte), _mm256_and_si256(_mm256_srli_epi32(v, 8), byte),
                  _mm256_and_si256(_mm256_srli_epi32(v, 16), byte), _mm256_srli_epi32(v, 24)};
  LaneSlots lanes{{}, {}, {v, _mm256_setzero_si256()}};
  compare_swap(c[0], c[1]); compare_swap(c[2], c[3]);
  compare_swap(c[0], c[2]); compare_swap(c[1], c[3]);
  compare_swap(c[1], c[2]);
  lanes.valid = sorted_valid(c, last_card);
  lanes.slot = ByRank ? by_rank_lanes(c) : colex_lanes(c);
  return lanes;
}

// Byte shuffles that put card i of each of four five-card hands (20 bytes,
// of which one 128-bit lane of `front` holds bytes 0..15 and the same lane
// of `back` bytes 4..19) in the low byte of the hand's 32-bit lane; 0x80
// writes zero.
struct FiveCardShuffles {
  alignas(32) std::uint8_t front[5][32]{}, back[5][32]{};
  constexpr FiveCardShuffles() {
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < 32; ++j) {
        const int at = 5 * (j % 16 / 4) + i;  // byte of this lane's 20
        const bool low_byte = j % 4 == 0;
        front[i][j] = static_cast<std::uint8_t>(low_byte && at < 16 ? at : 0x80);
        back[i][j] = static_cast<std::uint8_t>(low_byte && at >= 16 ? at - 4 : 0x80);
      }
    }
  }
};
constexpr FiveCardShuffles kFiveCardShuffles{};

// Eight five-card hands: hands 0..3 in the low lane, 4..7 in the high one,
// each lane from two 16-byte loads inside its 20 bytes.
template <bool ByRank>
inline LaneSlots five_lanes(const Card* hand, __m256i last_card) {
  const __m256i front = load_lanes(hand, hand + 20), back = load_lanes(hand + 4, hand + 24);
  const auto shuffle = [](const std::uint8_t* at) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(at)); };
  __m256i c[5];
  for (int i = 0; i < 5; ++i) {
    c[i] = _mm256_or_si256(_mm256_shuffle_epi8(front, shuffle(kFiveCardShuffles.front[i])),
                           _mm256_shuffle_epi8(back, shuffle(kFiveCardShuffles.back[i])));
  }
  LaneSlots lanes{{}, {}, {_mm256_setzero_si256(), _mm256_setzero_si256()}};
  for (const __m256i card : c) add_card(lanes, card);
  // Optimal 9-comparator network for five inputs.
  compare_swap(c[0], c[1]); compare_swap(c[3], c[4]);
  compare_swap(c[2], c[4]); compare_swap(c[2], c[3]);
  compare_swap(c[1], c[4]); compare_swap(c[0], c[3]);
  compare_swap(c[0], c[2]); compare_swap(c[1], c[3]);
  compare_swap(c[1], c[2]);
  lanes.valid = sorted_valid(c, last_card);
  lanes.slot = ByRank ? by_rank_lanes(c) : colex_lanes(c);
  return lanes;
}

template <std::size_t Width, bool ByRank>
inline LaneSlots lanes_of(const Card* hand, __m256i last_card) {
  if constexpr (Width == 4) {
    return four_lanes<ByRank>(hand, last_card);
  } else {
    return five_lanes<ByRank>(hand, last_card);
  }
}

// Slots of invalid lanes are masked to 0 so the table loads stay in range.
// Keys are loaded scalar a chunk at a time; the tail goes to the portable
// kernel.
template <std::size_t Width, bool ByRank>
bool best_of_rows(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table, const BestKey* by_rank,
                  unsigned pack) noexcept {
  const BestKey* lookup = ByRank ? by_rank : table;
  const __m256i last_card = _mm256_set1_epi32(static_cast<int>(pack - 1));
  alignas(32) std::uint32_t slots[kChunk];
  __m256i all_valid = _mm256_set1_epi32(-1);
  std::size_t done = 0;
  while (rows - done >= kLanes) {
    const std::size_t whole = (rows - done) / kLanes * kLanes;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;
    for (std::size_t j = 0; j < chunk; j += kLanes) {
      const LaneSlots lanes = lanes_of<Width, ByRank>(hands + Width * (done + j), last_card);
      _mm256_store_si256(reinterpret_cast<__m256i*>(slots + j), _mm256_and_si256(lanes.slot, lanes.valid));
      all_valid = _mm256_and_si256(all_valid, lanes.valid);
    }
    for (std::size_t j = 0; j < chunk; ++j) out[done + j] = lookup[slots[j]];
    done += chunk;
  }
  const bool tail_bad = best_of_rows_scalar(hands + Width * done, rows - done, Width, out + done, table, pack);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

// The see kernels: both hands of eight rows in one pass, a row valid when
// both hands are and they share no card; then the keys of a chunk
// compared as they are loaded, the outcome the only store.
template <std::size_t Width, bool ByRank>
bool best_of_see_rows(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out, const BestKey* table,
                      const BestKey* by_rank, unsigned pack) noexcept {
  const BestKey* lookup = ByRank ? by_rank : table;
  const __m256i last_card = _mm256_set1_epi32(static_cast<int>(pack - 1));
  alignas(32) std::uint32_t seer_slots[kChunk], seen_slots[kChunk];
  __m256i all_valid = _mm256_set1_epi32(-1);
  std::size_t done = 0;
  while (rows - done >= kLanes) {
    const std::size_t whole = (rows - done) / kLanes * kLanes;
    const std::size_t chunk = whole < kChunk ? whole : kChunk;
    for (std::size_t j = 0; j < chunk; j += kLanes) {
      const LaneSlots a = lanes_of<Width, ByRank>(seer + Width * (done + j), last_card);
      const LaneSlots b = lanes_of<Width, ByRank>(seen + Width * (done + j), last_card);
      const __m256i valid = _mm256_and_si256(disjoint<Width>(a, b), _mm256_and_si256(a.valid, b.valid));
      _mm256_store_si256(reinterpret_cast<__m256i*>(seer_slots + j), _mm256_and_si256(a.slot, valid));
      _mm256_store_si256(reinterpret_cast<__m256i*>(seen_slots + j), _mm256_and_si256(b.slot, valid));
      all_valid = _mm256_and_si256(all_valid, valid);
    }
    for (std::size_t j = 0; j < chunk; ++j) {
      out[done + j] = static_cast<std::uint8_t>(lookup[seer_slots[j]] > lookup[seen_slots[j]]);
    }
    done += chunk;
  }
  const bool tail_bad =
      best_of_see_rows_scalar(seer + Width * done, seen + Width * done, rows - done, Width, out + done, table, pack);
  return tail_bad || _mm256_movemask_epi8(all_valid) != -1;
}

}  // namespace

bool best_of_four_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            const BestKey* by_rank, unsigned pack) noexcept {
  return by_rank ? best_of_rows<4, true>(hands, rows, out, table, by_rank, pack)
                 : best_of_rows<4, false>(hands, rows, out, table, by_rank, pack);
}

bool best_of_five_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            const BestKey* by_rank, unsigned pack) noexcept {
  return by_rank ? best_of_rows<5, true>(hands, rows, out, table, by_rank, pack)
                 : best_of_rows<5, false>(hands, rows, out, table, by_rank, pack);
}

bool best_of_see_rows_avx2(const Card* seer, const Card* seen, std::size_t rows, std::size_t width,
                           std::uint8_t* out, const BestKey* table, const BestKey* by_rank,
                           unsigned pack) noexcept {
  if (width == 4) {
    return by_rank ? best_of_see_rows<4, true>(seer, seen, rows, out, table, by_rank, pack)
                   : best_of_see_rows<4, false>(seer, seen, rows, out, table, by_rank, pack);
  }
  return by_rank ? best_of_see_rows<5, true>(seer, seen, rows, out, table, by_rank, pack)
                 : best_of_see_rows<5, false>(seer, seen, rows, out, table, by_rank, pack);
}

}  // namespace prial
