// Exact odds by enumeration (SPEC §5 "odds"): category counts over every
// hand of the pack, and a hand's equity against random opponent hands dealt
// from the unseen cards (every deal when feasible, else a seeded sample).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "prial/tables.hpp"

namespace prial {

// Calls fn(combo) for every `k`-subset (k <= 8) of pool[0..n), in
// lexicographic order of positions; each combo lists its cards in pool order
// (so ascending when the pool is).
template <class Fn>
void for_each_combination(const Card* pool, int n, int k, Fn&& fn) {
  if (k <= 0 || k > n || k > 8) return;
  int idx[8];
  Card combo[8];
  for (int i = 0; i < k; ++i) idx[i] = i;
  while (true) {
    for (int i = 0; i < k; ++i) combo[i] = pool[idx[i]];
    fn(static_cast<const Card*>(combo));
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) --i;
    if (i < 0) return;
    ++idx[i];
    for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
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

// The comparison key of a hand of 3 cards: its strength (higher wins).
// Other hand sizes are compared through best-of keys (bestof.hpp).
class HandKey {
 public:
  explicit HandKey(const ThreeCardTable& table) : table_(table) {}
  // `cards` sorted ascending, three of them.
  std::uint32_t operator()(const Card* cards) const noexcept {
    return table_.strength(three_card_slot(cards[0], cards[1], cards[2]));
  }

 private:
  const ThreeCardTable& table_;
};

// The cards neither in `hand` nor `dead`, ascending.  Throws InvalidHand
// when a card repeats across them or is outside the pack.
std::vector<Card> unseen_cards(const ThreeCardTable& table, const Card* hand, std::size_t hand_size,
                               const Card* dead, std::size_t dead_count);

// Number of deals of `opponents` hands of `hand_size` cards from `unseen`
// cards, the opponents taken as an unordered set (the outcome for the hand
// does not depend on which opponent holds what).
double deal_count(int unseen, int hand_size, int opponents) noexcept;

// Every deal of `opponents` (1 or 2) three-card hands from `unseen`.
OutcomeCounts equity_exact(const ThreeCardTable& table, const Card* hand,
                           const std::vector<Card>& unseen, int opponents);

// `samples` random deals of `opponents` three-card hands, seeded.
OutcomeCounts equity_sampled(const ThreeCardTable& table, const Card* hand,
                             const std::vector<Card>& unseen, int opponents, std::uint64_t samples,
                             std::uint64_t seed);

}  // namespace prial
