// Best three of four or five cards (docs/rules.md, "4. Four- and five-card
// Brag").
//
// A hand of 3, 4 or 5 cards gets a *key*: higher wins, equal keys tie,
// the discard tie-break included.  Layout (the same for every width, so
// callers may treat every size alike; keys compare only between hands of
// the same width and ruleset):
//
//   bits 8..23: the three-card strength of the kept three (tables.hpp)
//   bits 4..7 : the higher discard's code (0 when there is none)
//   bits 0..3 : the lower discard's code  (0 when there is none)
//
// Discard code: a natural card ranks by its rank (deuce 1 .. ace 13, suits
// never rank); a joker ranks above an ace (14).  A wild card that is not a
// joker (a deuce under `deuces`) ranks at its own rank.  Higher discards
// win in every ruleset, lowball included: docs/rules.md (Muflis) reverses only the
// three-card order.  The kept three is the one with the highest key, so
// of equally strong threes the player keeps the one whose discards compare
// highest.
//
// Tables: a key per combination of the pack, indexed by the colexicographic
// rank of the sorted cards (a minimal perfect hash, as for three cards):
// C(52,4) = 270,725 and C(52,5) = 2,598,960 keys (C(55,4) and C(55,5) with
// three jokers; 15.3 MB at most for both).  Each width is built on first
// use, once per ruleset, and shared.
//
// By-rank tables (rulesets without wild cards): the key of four or five
// natural cards depends only on their ranks and on which of them share a
// suit three or more times (only a suited three can be a flush), so a
// second, much smaller copy is indexed by
//   by_rank_slot = suit_pattern * multisets(width) + multiset
// where multiset is the colex rank of the sorted ranks r0 <= r1 <= ...
// (that of the strictly increasing r_i + i: C(16,4) = 1,820 and
// C(17,5) = 6,188 multisets) and suit_pattern names the cards, by their
// place in sorted order, of the suit held three or more times (0: none;
// kSuitPattern below).  The five-card copy is 421 KB against 10.4 MB, so
// its loads hit the core's own cache instead of memory; pattern-major, so
// the keys of hands with no suited three (most hands: 82% of four cards,
// 63% of five) lie together in 7 and 25 KB.

// Batch kernels: a sorting network, the colex slot and one load per hand,
// slots computed a block ahead of the loads so that their cache misses
// overlap; four- and five-card hands use AVX2 kernels (eight hands a
// vector) when the CPU has AVX2 and PRIAL_SIMD allows (simd.hpp), three
// cards and other CPUs the portable one.
//
// C++ use (e.g. a fused showdown kernel):
//
//   auto table = prial::best_of_table(rules);        // cached per ruleset
//   BestKey k = table->key(cards, 5);                // validated, throws InvalidHand
//   table->key_batch(hands, rows, 5, out, threads);  // returns the first bad row or kNoBadRow
//   const BestKey* keys = table->keys(5);            // raw: keys[colex slot of sorted cards]
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "prial/cancel.hpp"
#include "prial/tables.hpp"

namespace prial {

using BestKey = std::uint32_t;
class KeyCensus;  // odds.hpp

inline constexpr int kStrengthShift = 8;
inline constexpr unsigned kJokerDiscardCode = 14;

// The tie-break code of a discarded card (see above).
inline constexpr unsigned discard_code(int card) noexcept {
  return is_joker(card) ? kJokerDiscardCode : static_cast<unsigned>(rank_of(card)) + 1u;
}

// Key from a three-card strength and up to two discard codes (any order).
inline constexpr BestKey make_key(Strength strength, unsigned discard_a = 0, unsigned discard_b = 0) noexcept {
  const unsigned hi = discard_a > discard_b ? discard_a : discard_b;
  const unsigned lo = discard_a > discard_b ? discard_b : discard_a;
  return (static_cast<BestKey>(strength) << kStrengthShift) | (hi << 4) | lo;
}

inline constexpr Strength strength_of_key(BestKey key) noexcept {
  return static_cast<Strength>(key >> kStrengthShift);
}

// The suit pattern of a hand from the places (bit i: card i in sorted
// order) its most held suit occupies: 0 unless three or more, and then an
// id, the four-card places (bits 0..3) first: 1..5 for four cards, 1..16
// for five.  (Plain arrays: the SIMD translation unit reads them too.)
struct SuitPatterns {
  std::uint8_t of_places[32]{};
  unsigned count[6]{};      // patterns, 0 included, of a hand of 4 or 5 cards (by width)
  unsigned multisets[6]{};  // rank multisets of 4 or 5 cards: C(13 + width - 1, width)
  constexpr SuitPatterns() {
    unsigned next = 1;
    for (unsigned width = 4; width <= 5; ++width) {
      for (unsigned places = 0; places < (1u << width); ++places) {
        const unsigned held = (places & 1) + (places >> 1 & 1) + (places >> 2 & 1) + (places >> 3 & 1) + (places >> 4 & 1);
        if (held >= 3 && of_places[places] == 0) of_places[places] = static_cast<std::uint8_t>(next++);
      }
      count[width] = next;
    }
    multisets[4] = 1820;
    multisets[5] = 6188;
  }
};
inline constexpr SuitPatterns kSuitPattern{};

// The full answer for one hand: which three to keep and why.
struct BestChoice {
  std::array<Card, 3> kept{};       // strongest first (highest card index first)
  std::array<Card, 2> discarded{};  // higher discard first
  int discards = 0;                 // 0, 1 or 2
  std::uint32_t slot = 0;           // three-card slot of the kept three
  BestKey key = 0;
};

// A fixed-size key array, on huge pages where the OS allows.
class KeyBuffer {
 public:
  explicit KeyBuffer(std::size_t count);
  ~KeyBuffer();
  KeyBuffer(const KeyBuffer&) = delete;
  KeyBuffer& operator=(const KeyBuffer&) = delete;
  BestKey* data() noexcept { return data_; }
  const BestKey* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  BestKey* data_ = nullptr;
  std::size_t size_ = 0;
};

class BestOfTable {
 public:
  explicit BestOfTable(std::shared_ptr<const ThreeCardTable> three);
  ~BestOfTable();

  const ThreeCardTable& three() const noexcept { return *three_; }
  int pack_size() const noexcept { return three_->pack_size(); }

  // The key table of one width (3, 4 or 5), built on first call
  // (thread-safe); index it by the colex slot of the sorted cards.  Width 3
  // is the three-card strength shifted into place.
  const BestKey* keys(std::size_t width) const;
  std::size_t slots(std::size_t width) const;
  // The by-rank copy of width 4 or 5 (see above), built with keys(width);
  // nullptr for a ruleset with wild cards.
  const BestKey* by_rank_keys(std::size_t width) const;
  // Seconds spent building each width's table (0 until built).
  double build_seconds(std::size_t width) const;
  // Memory held, in bytes: the three-card table's and those of the key and
  // counting tables built so far (they grow as widths are first used).
  std::size_t bytes() const noexcept;

  // The key of `width` cards in any order.  Validates (count 3..5, range,
  // repeats) and throws InvalidHand prefixed by `where`.
  BestKey key(const Card* cards, std::size_t width, const std::string& where = {}) const;

  // Which three to keep (validated like key()).
  BestChoice choose(const Card* cards, std::size_t width, const std::string& where = {}) const;

  // Keys of `rows` hands of `width` (3, 4 or 5) cards stored back to back.
  // Every row is validated; returns the first invalid row (its output is
  // unspecified) or kNoBadRow.  Builds the table first if needed; never
  // throws for bad cards (throws InvalidHand only for a bad width, and
  // Cancelled when `cancel` is set before it finishes: checked between
  // chunks of rows, not during the table build).
  std::size_t key_batch(const Card* hands, std::size_t rows, std::size_t width, BestKey* out,
                        int threads, const CancelFlag* cancel = nullptr) const;

  // The counting tables of one width behind exact heads-up equity
  // (odds.hpp, defined in odds.cpp), built on first call (thread-safe).
  const KeyCensus& census(std::size_t width) const;

 private:
  struct Lazy {
    std::once_flag once;
    std::unique_ptr<KeyBuffer> keys;
    std::vector<BestKey> by_rank;  // empty: none (width 3, or wild cards)
    double seconds = 0;
  };
  Lazy& lazy(std::size_t width) const;
  void build(std::size_t width, Lazy& into) const;
  void build_by_rank(std::size_t width, Lazy& into) const;
  void count_built(std::size_t bytes) const noexcept;  // a lazy table's, once built

  std::shared_ptr<const ThreeCardTable> three_;
  mutable std::array<Lazy, 3> lazy_;  // widths 3, 4, 5
  struct LazyCensus {
    std::once_flag once;
    std::shared_ptr<const KeyCensus> census;  // shared_ptr: KeyCensus is incomplete here
  };
  mutable std::array<LazyCensus, 3> census_;  // widths 3, 4, 5
  mutable std::atomic<std::size_t> built_bytes_{0};  // of the lazy tables, as each is built
};

// One table per ruleset, shared while held (thread-safe), like three_card_table().
std::shared_ptr<const BestOfTable> best_of_table(const RulesConfig& rules);

}  // namespace prial
