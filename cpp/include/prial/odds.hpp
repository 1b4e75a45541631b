// Exact odds by enumeration (docs/rules.md, "9. Odds, equity and
// percentile"): category counts over every hand of the pack, and a hand's
// equity against random opponent hands dealt from the unseen cards (every
// deal when feasible, else a seeded sample).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "prial/bestof.hpp"
#include "prial/cancel.hpp"
#include "prial/tables.hpp"

namespace prial {

// Calls fn(combo) for every `k`-subset (k <= 8) of pool[0..n), in
// colexicographic order of positions (the first position moves fastest);
// each combo lists its cards in pool order.  With an ascending pool the
// combos' colex slots rise monotonically, so lookups into a slot-indexed
// table walk it front to back (cache- and prefetch-friendly).
template <class Fn>
void for_each_combination(const Card* pool, int n, int k, Fn&& fn) {
  if (k <= 0 || k > n || k > 8) return;
  int idx[8];
  Card combo[8];
  for (int i = 0; i < k; ++i) {
    idx[i] = i;
    combo[i] = pool[i];
  }
  while (true) {
    fn(static_cast<const Card*>(combo));
    int i = 0;
    while (i < k && idx[i] + 1 == (i + 1 < k ? idx[i + 1] : n)) ++i;
    if (i == k) return;
    ++idx[i];
    combo[i] = pool[idx[i]];
    for (int j = 0; j < i; ++j) {
      idx[j] = j;
      combo[j] = pool[j];
    }
  }
}

// How many hands of `width` (3..5) cards from the whole pack fall in each
// category, judged by their strongest three cards.  Indexed by Category.
std::array<std::uint64_t, kCategories> category_counts(const ThreeCardTable& table, int width);

struct OutcomeCounts {
  std::uint64_t win = 0;   // the hand beats every opponent
  std::uint64_t tie = 0;   // no opponent beats it, one at least equals it
  std::uint64_t lose = 0;  // some opponent beats it
  std::uint64_t total() const noexcept { return win + tie + lose; }
};

// The comparison key of a hand of `width` (3..5) sorted cards: its best-of
// key (bestof.hpp), discard tie-break included; higher wins.
class HandKey {
 public:
  HandKey(const BestOfTable& table, int width) : keys_(table.keys(static_cast<std::size_t>(width))), width_(width) {}
  std::uint32_t operator()(const Card* sorted) const noexcept {
    std::uint32_t slot = 0;
    for (int i = 0; i < width_; ++i) slot += kBinomial(sorted[i], i + 1);
    return keys_[slot];
  }
  int width() const noexcept { return width_; }
  const BestKey* keys() const noexcept { return keys_; }  // by colex slot

 private:
  const BestKey* keys_;
  int width_;
};

// The cards neither in `hand` nor `dead`, ascending.  Throws InvalidHand
// when a card repeats across them or is outside the pack.
std::vector<Card> unseen_cards(int pack_size, const Card* hand, std::size_t hand_size,
                               const Card* dead, std::size_t dead_count);

// Number of deals of `opponents` hands of `hand_size` cards from `unseen`
// cards, the opponents taken as an unordered set (the outcome for the hand
// does not depend on which opponent holds what).
double deal_count(int unseen, int hand_size, int opponents) noexcept;

// Counting tables of one width: every hand of the pack counted by the dense
// rank of its key (the number of distinct keys below it), in all and per
// card it holds, as running totals.  By inclusion-exclusion over the known
// cards K (hand and dead), the opponent hands of the unseen cards with a
// key below k number
//   sum over S subset of K, |S| <= width, of (-1)^|S| x (hands of the pack
//   holding S with a key below k):
// |S| = 0 and 1 are read here; larger S are few and are counted directly.
// That holds for every ruleset: it only counts hands by their keys.  When
// the ruleset's keys do not change under any relabelling of the suits (nor
// of the jokers), the hands holding two given cards count the same for
// every pair of the same ranks and suitedness: those counts are read here
// too, one row per such class (a few hundred).
class KeyCensus {
 public:
  KeyCensus(const BestOfTable& table, int width);
  int width() const noexcept { return width_; }
  // Rank of a key of this width (of a hand of the pack).
  std::uint32_t rank(BestKey key) const noexcept { return rank_of_key_[key]; }
  // Hands of the pack whose rank is below r (r up to the number of ranks).
  std::uint64_t below(std::uint32_t r) const noexcept { return all_[r]; }
  // The same among the hands holding `card`.
  std::uint64_t below_with(Card card, std::uint32_t r) const noexcept { return per_card_[card * stride_ + r]; }
  // Memory held, in bytes.
  std::size_t bytes() const noexcept {
    return sizeof(*this) + (rank_of_key_.capacity() + all_.capacity() + per_card_.capacity()) * sizeof(std::uint32_t) +
           (pair_class_.capacity() + per_pair_.capacity()) * sizeof(std::uint16_t);
  }
  // Whether below_with_both answers (the suits and jokers are interchangeable).
  bool has_pairs() const noexcept { return !per_pair_.empty(); }
  // The same among the hands holding both cards a < b (has_pairs() only).
  std::uint64_t below_with_both(Card a, Card b, std::uint32_t r) const noexcept {
    return per_pair_[pair_class_[kBinomial(b, 2) + a] * stride_ + r];
  }

 private:
  int width_;
  std::size_t stride_;  // ranks + 1
  std::vector<std::uint32_t> rank_of_key_;
  std::vector<std::uint32_t> all_;
  std::vector<std::uint32_t> per_card_;
  std::vector<std::uint16_t> pair_class_;  // by the pair's colex slot
  std::vector<std::uint16_t> per_pair_;    // by class; at most C(53, 3) hands hold a pair
};

// Every deal of `opponents` (1 or 2) hands of `hand_size` (3..5) cards from
// `unseen`, against `hand` (hand_size cards), counted without dealing each:
// one opponent by inclusion-exclusion over the known cards (KeyCensus)
// when that looks at fewer hands than the unseen cards make, else by one
// pass over the unseen hands; two by one pass that counts, for each set S
// of unseen cards, the hands holding S, then the pairs of disjoint hands
// by inclusion-exclusion on the cards two hands share.  Throws Cancelled
// when `cancel` is set before it starts (the work is one pass over at
// most the unseen hands).
OutcomeCounts equity_exact(const BestOfTable& table, const Card* hand, int hand_size,
                           const std::vector<Card>& unseen, int opponents,
                           const CancelFlag* cancel = nullptr);

// Exact heads-up counts of `rows` hands of `width` (3..5) cards stored
// back to back, each against one opponent hand from the rest of the pack
// (no dead cards): win, tie, lose per row into out (3 x rows).  Every row
// is validated; returns the first invalid row (its output unspecified) or
// kNoBadRow.  Throws Cancelled when `cancel` is set before it finishes
// (checked between chunks of rows).
std::size_t equity_batch(const BestOfTable& table, const Card* hands, std::size_t rows, int width,
                         std::uint64_t* out, int threads, const CancelFlag* cancel = nullptr);

// `samples` random deals of `opponents` hands, seeded.  Throws Cancelled
// when `cancel` is set before it finishes (checked between chunks of deals;
// the answer does not depend on the chunking).
OutcomeCounts equity_sampled(const BestOfTable& table, const Card* hand, int hand_size,
                             const std::vector<Card>& unseen, int opponents, std::uint64_t samples,
                             std::uint64_t seed, const CancelFlag* cancel = nullptr);

}  // namespace prial
