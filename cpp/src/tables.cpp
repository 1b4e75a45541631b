#include "prial/tables.hpp"

#include <algorithm>

#include "shared_tables.hpp"

namespace prial {
namespace {

constexpr NaturalValue kValueMask = (1u << 19) - 1;

// Higher score = better in this ruleset; lowball (Muflis) reverses the order.
std::uint32_t score(const RulesConfig& rules, NaturalValue v) {
  return rules.lowball ? (kValueMask - v) : v;
}

// The suits of three natural cards under a suit order, card by card in the
// order that decides their category (a prial: by suit; a pair: its two
// cards, higher suit first, then the odd card; otherwise highest card first,
// the ace of A-2-3 last), each as its place: 2 bits a card, higher better.
// 0 without a suit order.
std::uint32_t suit_key(const RulesConfig& rules, NaturalValue v, int a, int b, int c) {
  if (!rules.suits_rank()) return 0;
  int cards[3] = {a, b, c};
  const auto place = [&rules](int card) { return rules.suit_rank[static_cast<std::size_t>(suit_of(card))]; };
  const auto higher_rank = [](int x, int y) { return rank_of(x) > rank_of(y); };
  const auto higher_suit = [&place](int x, int y) { return place(x) > place(y); };
  std::sort(cards, cards + 3, higher_rank);
  switch (category_of(v)) {
    case Category::Prial:
      std::sort(cards, cards + 3, higher_suit);
      break;
    case Category::Pair:
      // The paired two first: the odd card is the top or the bottom one.
      if (rank_of(cards[1]) != rank_of(cards[0])) std::rotate(cards, cards + 1, cards + 3);
      std::sort(cards, cards + 2, higher_suit);
      break;
    case Category::Run:
    case Category::RunningFlush:
      if (rank_of(cards[0]) == kAce && rank_of(cards[2]) == 0) std::rotate(cards, cards + 1, cards + 3);  // 3-2-A
      break;
    default:
      break;
  }
  return static_cast<std::uint32_t>(place(cards[0]) << 4 | place(cards[1]) << 2 | place(cards[2]));
}

struct Best {
  std::uint32_t score = 0;
  NaturalValue shape = 0;
  std::uint32_t suits = 0;  // suit_key of the hand made
};

// The strongest hand `naturals` can make when the remaining 3 - n cards are
// wild: every choice of distinct substitutes from the 52 cards not held.
class WildSubstitution {
 public:
  explicit WildSubstitution(const RulesConfig& rules) : rules_(rules) {}

  Best best(const int* naturals, int n) {
    if (n == 2) return memo(two_[kBinomial(naturals[0], 1) + kBinomial(naturals[1], 2)], naturals, n);
    if (n == 1) return memo(one_[naturals[0]], naturals, n);
    return memo(none_, naturals, n);
  }

 private:
  struct Entry { bool done = false; Best best; };

  Best memo(Entry& e, const int* naturals, int n) {
    if (!e.done) { e.best = search(naturals, n); e.done = true; }
    return e.best;
  }

  Best search(const int* naturals, int n) {
    int cards[3];
    for (int i = 0; i < n; ++i) cards[i] = naturals[i];
    Best best;
    bool found = false;
    // The strongest hand; of equally strong ones, the best suits (a wild
    // card takes the suit that serves best).
    auto consider = [&] {
      const NaturalValue v = natural_value(rules_, cards[0], cards[1], cards[2]);
      const std::uint32_t s = score(rules_, v);
      const std::uint32_t suits = suit_key(rules_, v, cards[0], cards[1], cards[2]);
      if (!found || s > best.score || (s == best.score && suits > best.suits)) {
        best = {s, v, suits};
        found = true;
      }
    };
    auto held = [&](int card) {
      for (int i = 0; i < n; ++i) if (naturals[i] == card) return true;
      return false;
    };
    // Substitutes are chosen in increasing order: each set is tried once.
    for (int x = 0; x < kStandardPack; ++x) {
      if (held(x)) continue;
      cards[n] = x;
      if (n == 2) { consider(); continue; }
      for (int y = x + 1; y < kStandardPack; ++y) {
        if (held(y)) continue;
        cards[n + 1] = y;
        if (n == 1) { consider(); continue; }
        for (int z = y + 1; z < kStandardPack; ++z) {
          cards[2] = z;
          consider();
        }
      }
    }
    return best;
  }

  const RulesConfig& rules_;
  std::array<Entry, 1326> two_{};  // C(52,2) pairs of naturals
  std::array<Entry, kStandardPack> one_{};
  Entry none_{};
};

// How many of a hand's wild cards stand for other cards, and how many of
// those are lesser wild cards: the fewer the better, wild cards first.
struct WildCount {
  int wilds = 0;
  int lesser = 0;
  bool operator<(const WildCount& o) const noexcept { return wilds != o.wilds ? wilds < o.wilds : lesser < o.lesser; }
};

// The least WildCount with which `cards` reaches `best`.  Under
// wild_as_itself="wild" every wild card counts; under "natural" each set of
// its non-joker wild cards is tried as standing for itself (natural), the
// rest substituted as well as they can.
WildCount wilds_standing_for_others(WildSubstitution& wild, const std::array<int, 3>& cards, std::uint32_t best,
                                    const RulesConfig& rules) {
  int fixed_wilds[3];
  int wilds = 0, jokers = 0;
  int naturals[3];
  int count = 0;
  for (const int c : cards) {
    if (c >= kStandardPack) {
      ++jokers;
    } else if (rules.is_wild(c)) {
      fixed_wilds[wilds++] = c;
    } else {
      naturals[count++] = c;
    }
  }
  WildCount fewest{wilds + jokers, 0};
  for (int i = 0; i < wilds; ++i) fewest.lesser += rules.is_lesser_wild(fixed_wilds[i]);
  if (rules.wild_as_itself != WildAsItself::Natural) return fewest;
  for (unsigned itself = 1; itself < (1u << wilds); ++itself) {
    int held[3];
    int n = 0;
    WildCount standing{jokers, 0};
    for (int i = 0; i < count; ++i) held[n++] = naturals[i];
    for (int i = 0; i < wilds; ++i) {
      if ((itself >> i) & 1u) {
        held[n++] = fixed_wilds[i];
      } else {
        ++standing.wilds;
        standing.lesser += rules.is_lesser_wild(fixed_wilds[i]);
      }
    }
    std::sort(held, held + n);  // WildSubstitution's memo is keyed by sorted cards
    const std::uint32_t reached = n == 3 ? score(rules, natural_value(rules, held[0], held[1], held[2]))
                                         : wild.best(held, n).score;
    if (reached == best && standing < fewest) fewest = standing;
  }
  return fewest;
}

// Whether the wild ties decide between equal hands of this shape.
bool wild_ties_count(const RulesConfig& rules, NaturalValue shape) {
  switch (rules.wild_ties) {
    case WildTies::NaturalWins: return true;
    case WildTies::NaturalPrials: return category_of(shape) == Category::Prial;
    case WildTies::Equal: return false;
  }
  return false;
}

}  // namespace

ThreeCardTable::ThreeCardTable(const RulesConfig& rules) : rules_(rules) {
  rules_.validate();
  const int n = rules_.pack_size();
  const std::size_t slots = kBinomial(n, 3);
  strength_.resize(slots);
  shape_.resize(slots);
  wilds_.resize(slots);

  WildSubstitution wild(rules_);
  std::vector<std::uint64_t> keys(slots);
  for (int c2 = 2; c2 < n; ++c2) {
    for (int c1 = 1; c1 < c2; ++c1) {
      for (int c0 = 0; c0 < c1; ++c0) {
        const std::uint32_t slot = three_card_slot(c0, c1, c2);
        int naturals[3];
        int count = 0;
        for (int c : {c0, c1, c2}) if (!rules_.is_wild(c)) naturals[count++] = c;
        Best best;
        if (count == 3) {
          best.shape = natural_value(rules_, c0, c1, c2);
          best.score = score(rules_, best.shape);
          best.suits = suit_key(rules_, best.shape, c0, c1, c2);
        } else {
          best = wild.best(naturals, count);
        }
        const WildCount wilds =
            count == 3 ? WildCount{} : wilds_standing_for_others(wild, {c0, c1, c2}, best.score, rules_);
        shape_[slot] = best.shape;
        wilds_[slot] = static_cast<std::uint8_t>(wilds.wilds);
        // Where the wild ties count, fewer wild cards break a tie in the
        // hand made, then fewer lesser wild cards; then, under a suit order,
        // the suits.
        const bool ties = wild_ties_count(rules_, best.shape);
        const auto naturalness = static_cast<std::uint64_t>(ties ? 3 - wilds.wilds : 0);
        const auto greater = static_cast<std::uint64_t>(ties ? 3 - wilds.lesser : 0);
        keys[slot] = (((((static_cast<std::uint64_t>(best.score) << 2) | naturalness) << 2) | greater) << 6) |
                     best.suits;
      }
    }
  }
  std::vector<std::uint64_t> distinct = keys;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  classes_ = static_cast<int>(distinct.size());
  for (std::size_t s = 0; s < slots; ++s) {
    strength_[s] = static_cast<Strength>(
        1 + (std::lower_bound(distinct.begin(), distinct.end(), keys[s]) - distinct.begin()));
  }
  if (rules_.wild_mask == 0 && rules_.jokers == 0) build_by_rank();
  g_live_table_bytes += bytes();
}

ThreeCardTable::~ThreeCardTable() { g_live_table_bytes -= bytes(); }

std::size_t live_table_bytes() noexcept { return g_live_table_bytes; }

// Fills by_rank_ and keeps it only if no two hands with the same ranks and
// suitedness differ in strength (true without wild cards; checked anyway).
void ThreeCardTable::build_by_rank() {
  std::vector<Strength> by_rank(kRankIndexes, 0);
  for (int c2 = 2; c2 < kStandardPack; ++c2) {
    for (int c1 = 1; c1 < c2; ++c1) {
      for (int c0 = 0; c0 < c1; ++c0) {
        const bool suited = suit_of(c0) == suit_of(c1) && suit_of(c1) == suit_of(c2);
        const unsigned index = rank_index(rank_of(c0), rank_of(c1), rank_of(c2), suited);
        const Strength strength = strength_[three_card_slot(c0, c1, c2)];
        if (by_rank[index] != 0 && by_rank[index] != strength) return;
        by_rank[index] = strength;
      }
    }
  }
  by_rank_.resize(2 * kRankIndexes);
  for (unsigned i = 0; i < kRankIndexes; ++i) {
    by_rank_[i] = static_cast<std::uint8_t>(by_rank[i] & 0xff);
    by_rank_[kRankIndexes + i] = static_cast<std::uint8_t>(by_rank[i] >> 8);
  }
}

std::vector<Category> categories_by_strength(const ThreeCardTable& table) {
  std::vector<Category> out(static_cast<std::size_t>(table.classes()) + 1, Category::HighCard);
  for (std::uint32_t slot = 0; slot < table.slots(); ++slot) out[table.strength(slot)] = table.category(slot);
  return out;
}

std::size_t ThreeCardTable::bytes() const noexcept {
  return sizeof(*this) + strength_.capacity() * sizeof(Strength) + shape_.capacity() * sizeof(NaturalValue) +
         wilds_.capacity() + by_rank_.capacity();
}

std::array<Category, kCategories> category_order(const ThreeCardTable& table) {
  std::array<Strength, kCategories> strongest{};  // 0: no hand in this category
  for (std::uint32_t slot = 0; slot < table.slots(); ++slot) {
    Strength& s = strongest[static_cast<std::size_t>(table.category(slot))];
    s = std::max(s, table.strength(slot));
  }
  std::array<Category, kCategories> order;
  for (int c = 0; c < kCategories; ++c) order[static_cast<std::size_t>(c)] = static_cast<Category>(c);
  std::stable_sort(order.begin(), order.end(), [&strongest](Category a, Category b) {
    return strongest[static_cast<std::size_t>(a)] > strongest[static_cast<std::size_t>(b)];
  });
  return order;
}

std::shared_ptr<const ThreeCardTable> three_card_table(const RulesConfig& rules) {
  static SharedTables<RulesConfig, ThreeCardTable> shared;
  return shared.get(rules, [&] { return std::make_shared<const ThreeCardTable>(rules); });
}

}  // namespace prial
