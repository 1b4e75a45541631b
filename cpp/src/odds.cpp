#include "prial/odds.hpp"

#include <algorithm>

#include "prial/parallel.hpp"

namespace prial {
namespace {

// splitmix64: small, fast, and well mixed for seeding a deal.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by rejection (no modulo bias).
  std::uint32_t below(std::uint32_t n) noexcept {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t x;
    do x = next(); while (x >= limit);
    return static_cast<std::uint32_t>(x % n);
  }
};

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

// Pairs of opponent hands compared between cancellation checks (exact
// equity, two opponents): ~4 ms on one core (about 2 ns a pair).
constexpr std::size_t kPairChunk = std::size_t{1} << 21;
// Sampled deals between cancellation checks: ~3.5 ms on one core against
// 16 three-card opponents (~840 ns a deal), less against fewer.
constexpr std::uint64_t kSampleChunk = 1 << 12;

void check_hand_size(int hand_size) {
  if (hand_size < 3 || hand_size > 5) {
    throw InvalidHand("hands must have 3, 4 or 5 cards, got " + std::to_string(hand_size));
  }
}

}  // namespace

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
  const int n = static_cast<int>(unseen.size());
  OutcomeCounts counts;
  throw_if_cancelled(cancel);
  if (opponents == 1) {
    for_each_combination(unseen.data(), n, hand_size, [&](const Card* other) { tally(counts, mine, key(other)); });
    return counts;
  }
  struct Candidate { std::uint64_t mask; std::uint32_t key; };
  std::vector<Candidate> candidates;
  for_each_combination(unseen.data(), n, hand_size, [&](const Card* other) {
    candidates.push_back({mask_of(other, hand_size), key(other)});
  });
  // Chunks of first hands, each paired with every later one: at most
  // kPairChunk pairs a chunk.
  const std::size_t first_hands = std::max<std::size_t>(1, kPairChunk / std::max<std::size_t>(1, candidates.size()));
  for_each_chunk(std::size_t{0}, candidates.size(), first_hands, cancel, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const Candidate a = candidates[i];
      for (std::size_t j = i + 1; j < candidates.size(); ++j) {
        if (a.mask & candidates[j].mask) continue;
        tally(counts, mine, std::max(a.key, candidates[j].key));
      }
    }
  });
  return counts;
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
