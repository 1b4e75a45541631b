// The seed-to-pack algorithm of a seeded deal, version 1 (docs/rules.md,
// "Dealing from a seed").  Stored seeds replay across releases, so this
// stream never changes; a new algorithm gets a new version.
#include <numeric>

#include "prial/table.hpp"
#include "splitmix.hpp"

namespace prial::table {

void shuffled_pack(std::uint64_t seed, int pack_size, Card* out) {
  std::iota(out, out + pack_size, Card{0});
  SplitMix64 rng{seed};
  for (int i = pack_size - 1; i > 0; --i) {
    const std::uint32_t j = rng.below(static_cast<std::uint32_t>(i + 1));
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
