#include "prial/odds.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>

#include "parallel.hpp"
#include "prial/evaluator.hpp"
#include "splitmix.hpp"

namespace prial {
namespace {

std::uint64_t mask_of(const Card* cards, int count) noexcept {
  std::uint64_t m = 0;
  for (int i = 0; i < count; ++i) m |= std::uint64_t{1} << cards[i];
  return m;
}

void tally(OutcomeCounts& counts, std::uint32_t mine, std::uint32_t best_opponent) noexcept {
  if (mine > best_opponent) ++counts.win;
  else if (mine == best_opponent) ++counts.tie;
  else ++counts.lose;
}

std::uint32_t sorted_key(const HandKey& key, const Card* hand) noexcept {
  Card sorted[5];
  std::copy(hand, hand + key.width(), sorted);
  std::sort(sorted, sorted + key.width());
  return key(sorted);
}

// Hands looked at between cancellation checks of equity_batch: a few ms
// on one core (a few ns a hand).  A row also costs about as much as
// looking at kRowHands hands whatever its count.
constexpr double kHandChunk = 1 << 20;
constexpr double kRowHands = 64;
// Sampled deals between cancellation checks: ~3.5 ms on one core against
// 16 three-card opponents (~840 ns a deal), less against fewer.
constexpr std::uint64_t kSampleChunk = 1 << 12;

void check_hand_size(int hand_size) {
  if (hand_size < 3 || hand_size > 5) {
    throw InvalidHand("hands must have 3, 4 or 5 cards, got " + std::to_string(hand_size));
  }
}

// Calls fn(key) for every hand of the pack holding the s sorted cards
// `fixed`: the fixed cards with every (width - s)-subset of the others.
template <class Fn>
void for_each_holding(const HandKey& key, int pack, const Card* fixed, int s, Fn&& fn) noexcept {
  const int free = key.width() - s;
  if (free == 0) {
    fn(key(fixed));
    return;
  }
  // A hand's colex slot sums C(card, place + 1) over its sorted cards.  A
  // free card's place is its index among the free cards plus the fixed
  // cards below it: term[j][i] for pool card i as free card j.  A fixed
  // card's place is its index plus the free cards below it: each pool card
  // adds 1 to the count of every fixed card above it (2 bits a fixed card,
  // at most 3 free cards), and fixed_part[counts] sums the fixed cards'
  // terms.  So the loops below only add and look up.
  std::uint32_t term[3][kMaxPack];
  unsigned counts_below[kMaxPack];
  int n = 0;
  for (int c = 0, j = 0; c < pack; ++c) {
    if (j < s && fixed[j] == c) {
      ++j;
      continue;
    }
    unsigned counts = 0;
    for (int k = j; k < s; ++k) counts += 1u << (2 * k);
    counts_below[n] = counts;
    for (int f = 0; f < free; ++f) term[f][n] = kBinomial(c, f + j + 1);
    ++n;
  }
  std::uint32_t fixed_part[1 << 8];  // s <= 4 when a card is free
  for (unsigned counts = 0; counts < (1u << (2 * s)); ++counts) {
    std::uint32_t sum = 0;
    for (int k = 0; k < s; ++k) {
      // A count above `free` never occurs: its entry stays unused.
      const int below = std::min(free, static_cast<int>((counts >> (2 * k)) & 3u));
      sum += kBinomial(fixed[k], k + below + 1);
    }
    fixed_part[counts] = sum;
  }
  const BestKey* keys = key.keys();
  if (free == 1) {
    for (int i0 = 0; i0 < n; ++i0) fn(keys[term[0][i0] + fixed_part[counts_below[i0]]]);
  } else if (free == 2) {
    for (int i1 = 1; i1 < n; ++i1) {
      for (int i0 = 0; i0 < i1; ++i0) {
        fn(keys[term[1][i1] + term[0][i0] + fixed_part[counts_below[i1] + counts_below[i0]]]);
      }
    }
  } else {
    for (int i2 = 2; i2 < n; ++i2) {
      for (int i1 = 1; i1 < i2; ++i1) {
        const std::uint32_t slot = term[2][i2] + term[1][i1];
        const unsigned counts = counts_below[i2] + counts_below[i1];
        for (int i0 = 0; i0 < i1; ++i0) fn(keys[slot + term[0][i0] + fixed_part[counts + counts_below[i0]]]);
      }
    }
  }
}

// Adds to lt and eq, with `sign`, the hands holding `fixed` (as above)
// whose key is below `mine` and equal to it.
void count_holding(const HandKey& key, int pack, const Card* fixed, int s, std::uint32_t mine, std::int64_t sign,
                   std::int64_t& lt, std::int64_t& eq) noexcept {
  std::int64_t below = 0, equal = 0;
  for_each_holding(key, pack, fixed, s, [&](std::uint32_t k) {
    below += k < mine;
    equal += k == mine;
  });
  lt += sign * below;
  eq += sign * equal;
}

// Whether relabelling the suits, or the jokers, changes no three-card
// strength (and so no key: discards rank by rank, jokers alike).
bool interchangeable_suits_and_jokers(const ThreeCardTable& three) {
  const int pack = three.pack_size();
  const Strength* strength = three.strengths();
  std::array<int, 4> suits = {0, 1, 2, 3};
  std::vector<std::array<Card, kMaxPack>> relabellings;
  do {
    std::array<Card, kMaxPack> to{};
    for (int c = 0; c < pack; ++c) to[c] = static_cast<Card>(is_joker(c) ? c : rank_of(c) * 4 + suits[suit_of(c)]);
    relabellings.push_back(to);
  } while (std::next_permutation(suits.begin(), suits.end()));
  for (int j = kFirstJoker + 1; j < pack; ++j) {  // swapping the first joker with each other generates them all
    std::array<Card, kMaxPack> to{};
    for (int c = 0; c < pack; ++c) to[c] = static_cast<Card>(c == j ? kFirstJoker : c == kFirstJoker ? j : c);
    relabellings.push_back(to);
  }
  std::vector<Card> cards(static_cast<std::size_t>(pack));
  std::iota(cards.begin(), cards.end(), Card{0});
  bool same = true;
  for (const auto& to : relabellings) {
    for_each_combination(cards.data(), pack, 3, [&](const Card* h) {
      std::array<Card, 3> t = {to[h[0]], to[h[1]], to[h[2]]};
      std::sort(t.begin(), t.end());
      same = same && strength[three_card_slot(h[0], h[1], h[2])] == strength[three_card_slot(t[0], t[1], t[2])];
    });
  }
  return same;
}

constexpr std::uint32_t kNoClass = ~std::uint32_t{0};

// Hands inclusion-exclusion looks at one by one for `known` cards: those
// holding `from` (2, or 3 when the census has pairs) or more of them.
double holding_work(int pack, int known, int width, int from) noexcept {
  double work = 0;
  for (int s = from; s <= std::min(width, known); ++s) {
    work += static_cast<double>(kBinomial(known, s)) * kBinomial(pack - s, width - s);
  }
  return work;
}

// One opponent's hands from `unseen` (n cards, ascending), the `known`
// (m ascending cards) being the rest of the pack: see equity_exact.
OutcomeCounts heads_up(const BestOfTable& table, const HandKey& key, std::uint32_t mine, const Card* known, int m,
                       const Card* unseen, int n) {
  const int w = key.width();
  const int pack = table.pack_size();
  OutcomeCounts counts;
  const std::uint64_t total = kBinomial(n, w);
  const KeyCensus& census = table.census(static_cast<std::size_t>(w));
  const int from = census.has_pairs() ? 3 : 2;
  if (holding_work(pack, m, w, from) >= static_cast<double>(total)) {
    for_each_combination(unseen, n, w, [&](const Card* other) { tally(counts, mine, key(other)); });
    return counts;
  }
  const std::uint32_t r = census.rank(mine);
  std::int64_t lt = static_cast<std::int64_t>(census.below(r));
  std::int64_t eq = static_cast<std::int64_t>(census.below(r + 1)) - lt;
  for (int i = 0; i < m; ++i) {
    const auto below = static_cast<std::int64_t>(census.below_with(known[i], r));
    lt -= below;
    eq -= static_cast<std::int64_t>(census.below_with(known[i], r + 1)) - below;
  }
  if (census.has_pairs()) {
    for (int j = 1; j < m; ++j) {
      for (int i = 0; i < j; ++i) {
        const auto below = static_cast<std::int64_t>(census.below_with_both(known[i], known[j], r));
        lt += below;
        eq += static_cast<std::int64_t>(census.below_with_both(known[i], known[j], r + 1)) - below;
      }
    }
  }
  for (int s = from; s <= std::min(w, m); ++s) {
    const std::int64_t sign = s % 2 == 0 ? 1 : -1;
    for_each_combination(known, m, s,
                         [&](const Card* fixed) { count_holding(key, pack, fixed, s, mine, sign, lt, eq); });
  }
  counts.win = static_cast<std::uint64_t>(lt);
  counts.tie = static_cast<std::uint64_t>(eq);
  counts.lose = total - counts.win - counts.tie;
  return counts;
}

// Two opponents' hands from `unseen`: for each set S of fewer than `width`
// unseen cards, the hands holding S with a key below `mine` and with one
// at most `mine`.  Two hands share a card exactly when
//   sum over nonempty S subset of both of (-1)^(|S|+1)
// is 1 (else it is 0), so of the ordered pairs of hands of a set T,
//   sum over nonempty S of (-1)^(|S|+1) x holding(S)^2
// share a card (a hand paired with itself included); the others are the
// deals, each counted twice.  Pairs from the hands below `mine` are wins,
// from those at most `mine` wins and ties.
OutcomeCounts two_opponents(const HandKey& key, std::uint32_t mine, const std::vector<Card>& unseen) {
  const int w = key.width();
  const int n = static_cast<int>(unseen.size());
  struct Holding {
    std::uint64_t hands = 0;                 // |T|
    std::array<std::vector<std::uint32_t>, 4> by_subset;  // [s - 1][colex rank of S's positions]
  };
  Holding below, upto;
  for (int s = 1; s < w; ++s) {
    below.by_subset[s - 1].assign(kBinomial(n, s), 0);
    upto.by_subset[s - 1].assign(kBinomial(n, s), 0);
  }
  std::vector<Card> positions(static_cast<std::size_t>(n));
  std::iota(positions.begin(), positions.end(), Card{0});
  for_each_combination(positions.data(), n, w, [&](const Card* p) {
    Card cards[5];
    for (int i = 0; i < w; ++i) cards[i] = unseen[p[i]];
    const std::uint32_t k = key(cards);
    if (k > mine) return;
    const bool win = k < mine;
    ++upto.hands;
    below.hands += win;
    for (unsigned subset = 1; subset + 1 < (1u << w); ++subset) {
      std::uint32_t rank = 0;
      int s = 0;
      for (int i = 0; i < w; ++i) {
        if ((subset >> i) & 1u) rank += kBinomial(p[i], ++s);
      }
      ++upto.by_subset[s - 1][rank];
      below.by_subset[s - 1][rank] += win;
    }
  });
  auto deals = [&](const Holding& h) {
    const auto t = static_cast<std::int64_t>(h.hands);
    std::int64_t sharing = w % 2 == 1 ? t : -t;  // |S| = width: the hand itself
    for (int s = 1; s < w; ++s) {
      std::int64_t squares = 0;
      for (const std::uint32_t d : h.by_subset[s - 1]) squares += static_cast<std::int64_t>(d) * d;
      sharing += s % 2 == 1 ? squares : -squares;
    }
    return static_cast<std::uint64_t>((t * t - sharing) / 2);
  };
  const std::uint64_t total = static_cast<std::uint64_t>(kBinomial(n, w)) * kBinomial(n - w, w) / 2;
  OutcomeCounts counts;
  counts.win = deals(below);
  counts.tie = deals(upto) - counts.win;
  counts.lose = total - counts.win - counts.tie;
  return counts;
}

}  // namespace

KeyCensus::KeyCensus(const BestOfTable& table, int width) : width_(width) {
  const BestKey* keys = table.keys(static_cast<std::size_t>(width));
  const std::size_t slots = table.slots(static_cast<std::size_t>(width));
  // Keys are at most a few hundred thousand (strength << 8 | discards): a
  // direct key -> rank array.
  rank_of_key_.assign(static_cast<std::size_t>(*std::max_element(keys, keys + slots)) + 1, 0);
  for (std::size_t i = 0; i < slots; ++i) rank_of_key_[keys[i]] = 1;
  std::uint32_t ranks = 0;
  for (std::uint32_t& r : rank_of_key_) {
    const std::uint32_t present = r;
    r = ranks;
    ranks += present;
  }
  stride_ = std::size_t{ranks} + 1;
  const int pack = table.pack_size();
  all_.assign(stride_, 0);
  per_card_.assign(static_cast<std::size_t>(pack) * stride_, 0);
  std::vector<Card> cards(static_cast<std::size_t>(pack));
  std::iota(cards.begin(), cards.end(), Card{0});
  const HandKey key(table, width);
  // Counts at rank + 1, summed below into the running totals.
  for_each_combination(cards.data(), pack, width, [&](const Card* hand) {
    const std::size_t r = rank(key(hand)) + 1;
    ++all_[r];
    for (int i = 0; i < width; ++i) ++per_card_[hand[i] * stride_ + r];
  });
  std::partial_sum(all_.begin(), all_.end(), all_.begin());
  for (int c = 0; c < pack; ++c) {
    auto row = per_card_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(c) * stride_);
    std::partial_sum(row, row + static_cast<std::ptrdiff_t>(stride_), row);
  }
  if (!interchangeable_suits_and_jokers(table.three())) return;
  // One class per canonical pair: the suits relabelled so that the lower
  // card's is the first and a different suit of the higher card's the
  // second, the jokers so that they are the first ones.  Each class's row
  // counts the hands holding its canonical pair.
  pair_class_.assign(kBinomial(pack, 2), 0);
  std::vector<std::uint32_t> representative(kBinomial(pack, 2), kNoClass);
  std::vector<std::array<Card, 2>> classes;
  for (int b = 1; b < pack; ++b) {
    for (int a = 0; a < b; ++a) {
      const Card lo = is_joker(a) ? Card{kFirstJoker} : static_cast<Card>(rank_of(a) * 4);
      const Card hi = is_joker(b) ? static_cast<Card>(kFirstJoker + is_joker(a))
                                  : static_cast<Card>(rank_of(b) * 4 + (is_joker(a) || suit_of(a) != suit_of(b)));
      std::uint32_t& id = representative[kBinomial(std::max(lo, hi), 2) + std::min(lo, hi)];
      if (id == kNoClass) {
        id = static_cast<std::uint32_t>(classes.size());
        classes.push_back({std::min(lo, hi), std::max(lo, hi)});
      }
      pair_class_[kBinomial(b, 2) + a] = static_cast<std::uint16_t>(id);
    }
  }
  per_pair_.assign(classes.size() * stride_, 0);
  for (std::size_t id = 0; id < classes.size(); ++id) {
    std::uint16_t* row = per_pair_.data() + id * stride_;
    for_each_holding(key, pack, classes[id].data(), 2, [&](std::uint32_t k) { ++row[rank(k) + 1]; });
    std::partial_sum(row, row + stride_, row);
  }
}

const KeyCensus& BestOfTable::census(std::size_t width) const {
  if (width < 3 || width > 5) {
    throw InvalidHand("census: expected 3, 4 or 5 cards, got " + std::to_string(width));
  }
  LazyCensus& entry = census_[width - 3];
  std::call_once(entry.once, [&] {
    entry.census = std::make_shared<const KeyCensus>(*this, static_cast<int>(width));
    count_built(entry.census->bytes());
  });
  return *entry.census;
}

std::array<std::uint64_t, kCategories> category_counts(const ThreeCardTable& table, int width) {
  if (width < 3 || width > 5) {
    throw InvalidHand("cards must be 3, 4 or 5, got " + std::to_string(width));
  }
  std::array<std::uint64_t, kCategories> counts{};
  std::vector<Card> pack(static_cast<std::size_t>(table.pack_size()));
  for (std::size_t i = 0; i < pack.size(); ++i) pack[i] = static_cast<Card>(i);
  for_each_combination(pack.data(), table.pack_size(), width, [&](const Card* hand) {
    // The strongest three of the hand decide its category.
    Strength best = 0;
    std::uint32_t best_slot = 0;
    for_each_combination(hand, width, 3, [&](const Card* three) {
      const std::uint32_t slot = three_card_slot(three[0], three[1], three[2]);
      if (table.strength(slot) > best) { best = table.strength(slot); best_slot = slot; }
    });
    ++counts[static_cast<std::size_t>(table.category(best_slot))];
  });
  return counts;
}

std::vector<Card> unseen_cards(int pack_size, const Card* hand, std::size_t hand_size,
                               const Card* dead, std::size_t dead_count) {
  std::vector<Card> known(hand, hand + hand_size);
  known.insert(known.end(), dead, dead + dead_count);
  const std::string problem = hand_problem(known.data(), known.size(), pack_size);
  if (!problem.empty()) {
    throw InvalidHand("hand and dead cards (cards 1.." + std::to_string(hand_size) +
                      " the hand, then the dead): " + problem);
  }
  const std::uint64_t taken = mask_of(known.data(), static_cast<int>(known.size()));
  std::vector<Card> unseen;
  for (int c = 0; c < pack_size; ++c) {
    if (((taken >> c) & 1u) == 0) unseen.push_back(static_cast<Card>(c));
  }
  return unseen;
}

double deal_count(int unseen, int hand_size, int opponents) noexcept {
  double deals = 1.0, factorial = 1.0;
  for (int o = 0; o < opponents; ++o) {
    const int left = unseen - o * hand_size;
    if (left < hand_size) return 0.0;
    double choose = 1.0;
    for (int i = 0; i < hand_size; ++i) choose = choose * (left - i) / (i + 1);
    deals *= choose;
    factorial *= o + 1;
  }
  return deals / factorial;
}

OutcomeCounts equity_exact(const BestOfTable& table, const Card* hand, int hand_size,
                           const std::vector<Card>& unseen, int opponents, const CancelFlag* cancel) {
  check_hand_size(hand_size);
  if (opponents < 1 || opponents > 2) {
    throw InvalidHand("exact equity enumerates 1 or 2 opponents, got " + std::to_string(opponents));
  }
  throw_if_cancelled(cancel);  // before a key table is built
  const HandKey key(table, hand_size);
  const std::uint32_t mine = sorted_key(key, hand);
  throw_if_cancelled(cancel);
  if (opponents == 2) return two_opponents(key, mine, unseen);
  std::vector<Card> known;
  for (int c = 0, j = 0; c < table.pack_size(); ++c) {
    if (j < static_cast<int>(unseen.size()) && unseen[static_cast<std::size_t>(j)] == c) ++j;
    else known.push_back(static_cast<Card>(c));
  }
  return heads_up(table, key, mine, known.data(), static_cast<int>(known.size()), unseen.data(),
                  static_cast<int>(unseen.size()));
}

std::size_t equity_batch(const BestOfTable& table, const Card* hands, std::size_t rows, int width,
                         std::uint64_t* out, int threads, const CancelFlag* cancel) {
  check_hand_size(width);
  throw_if_cancelled(cancel);  // before a key table is built
  const HandKey key(table, width);
  const int pack = table.pack_size();
  const KeyCensus& census = table.census(static_cast<std::size_t>(width));  // built before the threads start
  const double work = holding_work(pack, width, width, census.has_pairs() ? 3 : 2) + kRowHands;
  const auto chunk = static_cast<std::size_t>(std::max(1.0, kHandChunk / work));
  std::atomic<std::size_t> first_bad{kNoBadRow};
  parallel_chunks(rows, threads, chunk, cancel, [&](std::size_t begin, std::size_t end) {
    for (std::size_t row = begin; row < end; ++row) {
      Card sorted[5];
      std::copy(hands + width * row, hands + width * (row + 1), sorted);
      std::sort(sorted, sorted + width);
      bool valid = sorted[width - 1] < pack;
      for (int i = 1; i < width; ++i) valid = valid && sorted[i - 1] < sorted[i];
      if (!valid) {
        std::size_t seen = first_bad.load();
        while (row < seen && !first_bad.compare_exchange_weak(seen, row)) {}
        return;
      }
      Card unseen[kMaxPack];
      int n = 0;
      for (int c = 0, j = 0; c < pack; ++c) {
        if (j < width && sorted[j] == c) ++j;
        else unseen[n++] = static_cast<Card>(c);
      }
      const OutcomeCounts c = heads_up(table, key, key(sorted), sorted, width, unseen, n);
      out[3 * row] = c.win;
      out[3 * row + 1] = c.tie;
      out[3 * row + 2] = c.lose;
    }
  }, chunk);
  return first_bad.load();
}

OutcomeCounts equity_sampled(const BestOfTable& table, const Card* hand, int hand_size,
                             const std::vector<Card>& unseen, int opponents, std::uint64_t samples,
                             std::uint64_t seed, const CancelFlag* cancel) {
  check_hand_size(hand_size);
  const int needed = hand_size * opponents;
  if (opponents < 1 || needed > static_cast<int>(unseen.size())) {
    throw InvalidHand(std::to_string(opponents) + " opponents need " + std::to_string(needed) +
                      " unseen cards, there are " + std::to_string(unseen.size()));
  }
  throw_if_cancelled(cancel);  // before a key table is built
  const HandKey key(table, hand_size);
  const std::uint32_t mine = sorted_key(key, hand);
  std::vector<Card> deck = unseen;
  const auto n = static_cast<std::uint32_t>(deck.size());
  SplitMix64 rng{seed};
  OutcomeCounts counts;
  // One generator walked in order, so the chunks change no answer.
  for_each_chunk(std::uint64_t{0}, samples, kSampleChunk, cancel, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t s = begin; s < end; ++s) {
      // A partial Fisher-Yates shuffle deals the first `needed` cards.
      for (int i = 0; i < needed; ++i) {
        const std::uint32_t j = static_cast<std::uint32_t>(i) + rng.below(n - static_cast<std::uint32_t>(i));
        std::swap(deck[static_cast<std::size_t>(i)], deck[j]);
      }
      std::uint32_t best = 0;
      for (int o = 0; o < opponents; ++o) {
        best = std::max(best, sorted_key(key, deck.data() + hand_size * o));
      }
      tally(counts, mine, best);
    }
  });
  return counts;
}

}  // namespace prial
