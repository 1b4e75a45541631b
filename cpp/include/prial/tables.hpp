// The minimal perfect hash over three-card combinations and the per-ruleset
// strength table it indexes (docs/rules.md, "2. Three-card hands" and
// "3. Rulesets").
//
// Hash: the colexicographic rank of the sorted cards c0 < c1 < c2,
//   slot = C(c0,1) + C(c1,2) + C(c2,3),
// a bijection from the C(n,3) combinations of an n-card pack onto
// 0 .. C(n,3)-1: 22,100 slots for 52 cards, 26,235 with three jokers.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "prial/cards.hpp"
#include "prial/rules.hpp"

namespace prial {

// binomial(n, k) for the small n, k the hashes need (n <= 55, k <= 5).
struct Binomials {
  std::array<std::array<std::uint32_t, 6>, kMaxPack + 1> c{};
  constexpr Binomials() {
    for (int n = 0; n <= kMaxPack; ++n) {
      c[n][0] = 1;
      for (int k = 1; k < 6; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
  }
  constexpr std::uint32_t operator()(int n, int k) const { return c[n][k]; }
};
inline constexpr Binomials kBinomial{};

// C(n, K) for every n of the pack, as one array: the kernels' slot terms.
template <int K>
constexpr std::array<std::uint32_t, kMaxPack + 1> binomial_column() {
  std::array<std::uint32_t, kMaxPack + 1> col{};
  for (int n = 0; n <= kMaxPack; ++n) col[n] = kBinomial(n, K);
  return col;
}
template <int K>
inline constexpr std::array<std::uint32_t, kMaxPack + 1> kChoose = binomial_column<K>();

// Slot of a strictly increasing triple.
inline std::uint32_t three_card_slot(int c0, int c1, int c2) noexcept {
  return kBinomial(c0, 1) + kBinomial(c1, 2) + kBinomial(c2, 3);
}

// Strength: dense 1..classes, higher is better, equal strengths tie.
using Strength = std::uint16_t;

// Everything known about each three-card combination under one ruleset.
class ThreeCardTable {
 public:
  explicit ThreeCardTable(const RulesConfig& rules);
  ~ThreeCardTable();
  ThreeCardTable(const ThreeCardTable&) = delete;
  ThreeCardTable& operator=(const ThreeCardTable&) = delete;

  const RulesConfig& rules() const noexcept { return rules_; }
  int pack_size() const noexcept { return rules_.pack_size(); }
  std::size_t slots() const noexcept { return strength_.size(); }
  int classes() const noexcept { return classes_; }

  const Strength* strengths() const noexcept { return strength_.data(); }
  Strength strength(std::uint32_t slot) const noexcept { return strength_[slot]; }
  // The natural hand the cards stand as (for wild hands, the best substitution).
  NaturalValue shape(std::uint32_t slot) const noexcept { return shape_[slot]; }
  int wilds(std::uint32_t slot) const noexcept { return wilds_[slot]; }
  Category category(std::uint32_t slot) const noexcept { return category_of(shape_[slot]); }
  // Memory the table holds, in bytes.
  std::size_t bytes() const noexcept;
  // "Run, 3-2-A": the hand in words (rules.hpp describe()).
  std::string description(std::uint32_t slot) const { return describe(shape_[slot], wilds_[slot]); }

  // Derived copy for the AVX-512 kernel, present when strength depends only
  // on the three ranks and on whether the hand is suited (no wild cards):
  // the low and high bytes of the strength at rank_index() (kernels.hpp),
  // kRankIndexes entries each; nullptr otherwise.
  const std::uint8_t* by_rank_low() const noexcept { return by_rank_.empty() ? nullptr : by_rank_.data(); }
  const std::uint8_t* by_rank_high() const noexcept {
    return by_rank_.empty() ? nullptr : by_rank_.data() + by_rank_.size() / 2;
  }

 private:
  void build_by_rank();

  RulesConfig rules_;
  std::vector<Strength> strength_;
  std::vector<NaturalValue> shape_;
  std::vector<std::uint8_t> wilds_;
  std::vector<std::uint8_t> by_rank_;
  int classes_ = 0;
};

// Index of a suited or unsuited rank multiset r0 <= r1 <= r2 (ranks 0..12):
// the multiset's colex rank (0..454), plus 455 when all three cards share a
// suit.  Below kRankIndexes = 1024: eight 128-entry byte-permute segments.
inline constexpr unsigned kRankIndexes = 1024;
inline constexpr unsigned kSuitedOffset = 455;
constexpr unsigned rank_index(unsigned r0, unsigned r1, unsigned r2, bool suited) noexcept {
  return r0 + (r1 + 1) * r1 / 2 + (r2 + 2) * (r2 + 1) * r2 / 6 + (suited ? kSuitedOffset : 0);
}

// The Category of every strength class, indexed by strength (1..classes;
// index 0, no hand, holds 0).
std::vector<Category> categories_by_strength(const ThreeCardTable& table);

// Every category, strongest first by the strongest hand it holds in the
// table; categories no hand of the ruleset falls in (if any) last, in code
// order.
std::array<Category, kCategories> category_order(const ThreeCardTable& table);

// Tables are built once per ruleset and shared by every Evaluator that asks
// for the same rules while any of them holds it (thread-safe): the holders
// keep tables, never the registry, so hold the pointer for as long as the
// ruleset is in use.
std::shared_ptr<const ThreeCardTable> three_card_table(const RulesConfig& rules);

// Bytes held by all the ruleset tables alive in the process: the three-card
// tables and the best-of key and counting tables built so far (bytes() of
// each), whoever holds them.  What a cache of rulesets bounds.
std::size_t live_table_bytes() noexcept;

}  // namespace prial
