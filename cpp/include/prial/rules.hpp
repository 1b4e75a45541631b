// Rulesets and the order of natural three-card hands (docs/rules.md,
// "2. Three-card hands" and "3. Rulesets").
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "prial/cards.hpp"

namespace prial {

// Numbering is fixed (it is the Python Category's value): weakest first
// in standard Brag.  The order between categories is the ruleset's.
enum class Category : std::uint8_t {
  HighCard = 0,
  Pair = 1,
  Flush = 2,
  Run = 3,
  RunningFlush = 4,
  Prial = 5,
};
inline constexpr int kCategories = 6;

enum class AceTwoThree : std::uint8_t { Top, Second, Bottom };
enum class TopPrial : std::uint8_t { Three, Ace };
// NaturalPrials: fewer wild cards win only between equal prials (an equal
// pair made with a wild card ties the natural one).
enum class WildTies : std::uint8_t { NaturalWins, Equal, NaturalPrials };
// A wild card that stands for itself (its own rank and suit): still wild,
// or natural for the wild ties (a joker is never natural).
enum class WildAsItself : std::uint8_t { Wild, Natural };

// One fully resolved ruleset.  Presets and names are resolved in Python;
// this is the plain data every table is built from.
struct RulesConfig {
  AceTwoThree ace_two_three = AceTwoThree::Top;
  TopPrial top_prial = TopPrial::Three;
  bool running_flush_over_prial = false;  // Three Card Poker's category order
  bool lowball = false;                    // Muflis: the whole order reversed
  // Classic Brag counts only prials and pairs: false makes every run, flush
  // and running flush a high card.
  bool runs_and_flushes = true;
  std::uint64_t wild_mask = 0;             // bit i: card i is wild (0..51); jokers always are
  // Wild cards of wild_mask that, where the wild ties count, lose to the
  // others: of two equal hands with as many wild cards, fewer of these win.
  std::uint64_t lesser_wild_mask = 0;
  int jokers = 0;                          // 0..3 jokers in the pack (52, 53, 54)
  WildTies wild_ties = WildTies::NaturalWins;
  WildAsItself wild_as_itself = WildAsItself::Wild;
  // Suit order: suit_rank[s] is suit s's place, 3 the highest, breaking
  // ties that are otherwise exact (docs/rules.md, suit_order); all 0: suits
  // never rank.
  std::array<std::uint8_t, 4> suit_rank{};

  bool suits_rank() const noexcept { return suit_rank != std::array<std::uint8_t, 4>{}; }
  int pack_size() const noexcept { return kStandardPack + jokers; }
  bool is_wild(int card) const noexcept {
    return card >= kFirstJoker || ((wild_mask >> card) & 1u) != 0;
  }
  bool has_wilds() const noexcept { return jokers > 0 || wild_mask != 0; }
  bool is_lesser_wild(int card) const noexcept {
    return card < kStandardPack && ((lesser_wild_mask >> card) & 1u) != 0;
  }

  // Throws InvalidHand on an impossible combination (e.g. jokers > 3).
  void validate() const;
  bool operator==(const RulesConfig& other) const noexcept;
  bool operator<(const RulesConfig& other) const noexcept;
};

// The value of three natural (non-wild, distinct) cards in the ruleset's
// non-lowball order: higher is better, equal values tie.  Layout:
//   bits 16..18: the category's place in the ruleset's category order
//   bits 13..15: the Category itself (so a value can be described)
//   bits  0..11: ranks deciding within the category, 4 bits each
using NaturalValue = std::uint32_t;
NaturalValue natural_value(const RulesConfig& rules, int a, int b, int c) noexcept;

inline Category category_of(NaturalValue v) noexcept {
  return static_cast<Category>((v >> 13) & 7u);
}

// "Prial of threes", "Run, 3-2-A", "Pair of nines, three kicker",
// "Flush, K-9-2", "High card, J-6-3"; `wilds` > 0 appends " (2 wild)".
std::string describe(NaturalValue v, int wilds);

const char* category_name(Category c) noexcept;

}  // namespace prial
