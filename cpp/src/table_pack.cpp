// The seed-to-pack algorithm of a seeded deal, version 1 (docs/rules.md,
// "Dealing from a seed").  Stored seeds replay across releases, so this
// stream never changes; a new algorithm gets a new version.
#include <numeric>

#include "prial/table.hpp"
#include "splitmix.hpp"

namespace prial::table {

// Fisher-Yates from the top: place i is settled at step i, so a deal that
// needs only the top `cards` cards stops there and deals the same cards.
void shuffled_pack(std::uint64_t seed, int pack_size, Card* out, int cards) {
  std::iota(out, out + pack_size, Card{0});
  SplitMix64 rng{seed};
  for (int i = 0; i < cards && i < pack_size - 1; ++i) {
    const std::uint32_t j = static_cast<std::uint32_t>(i) + rng.below_by_multiply(static_cast<std::uint32_t>(pack_size - i));
    std::swap(out[i], out[j]);
  }
}

void deal_hands(const Card* pack, int players, int dealer, int cards, std::uint32_t dealt_in, Card* out) {
  std::fill(out, out + players * cards, kUnknownCard);
  int top = 0;
  for (int round = 0; round < cards; ++round) {
    for (int k = 1; k <= players; ++k) {
      const int i = (dealer + k) % players;
      if (dealt_in >> i & 1u) out[i * cards + round] = pack[top++];
    }
  }
}

}  // namespace prial::table
