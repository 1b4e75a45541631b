// Native self-play (table.hpp): many deals played by the random policy,
// straight on the transition function, for simulations and benchmarks.
#include <vector>

#include "prial/table.hpp"
#include "splitmix.hpp"

namespace prial::table {

std::uint64_t self_play_random(const Table& table, int players, std::size_t deals, std::uint64_t seed, Chips stack,
                               Chips* nets, std::uint32_t* actions) {
  check_players(table, players);
  const int width = table.config.cards;
  const int pack_size = table.evaluator->table().pack_size();
  std::vector<Card> pack(static_cast<std::size_t>(pack_size));
  std::vector<Card> hands(static_cast<std::size_t>(players) * width);
  std::vector<Chips> stacks(static_cast<std::size_t>(players), stack);
  const std::uint32_t everyone = (std::uint32_t{1} << players) - 1;
  std::uint64_t total = 0;
  DealState s;
  Legal legal[kMaxLegal];
  for (std::size_t d = 0; d < deals; ++d) {
    const int dealer = static_cast<int>(d % static_cast<std::size_t>(players));
    shuffled_pack(seed + d, pack_size, pack.data());
    deal_hands(pack.data(), players, dealer, width, everyone, hands.data());
    start(table, Setup{players, dealer, stack == kNoLimit ? nullptr : stacks.data(), hands.data()}, s);
    SplitMix64 rng{(seed + d) ^ 0x5bd1e995u};
    std::uint32_t played = 0;
    while (s.phase != Phase::Over && played < kSelfPlayMaxActions) {
      const int n = legal_actions(table, s, legal);
      const Legal& l = legal[rng.below(static_cast<std::uint32_t>(n))];
      Move m;
      m.kind = l.kind;
      m.player = s.to_act;
      if (l.kind == Kind::Stake || l.kind == Kind::Sideshow) {
        const Chips most = l.most == kNoLimit ? 4 * l.least : l.most;
        m.amount = l.least + static_cast<Chips>(rng.next() % static_cast<std::uint64_t>(most - l.least + 1));
      } else if (l.kind == Kind::Discard) {
        const PlayerState& p = s.seat[s.to_act];
        m.ndiscards = table.config.discards;
        const std::uint32_t first = rng.below(static_cast<std::uint32_t>(width));
        m.discards[0] = p.cards[first];
        if (m.ndiscards == 2) {
          const std::uint32_t second = (first + 1 + rng.below(static_cast<std::uint32_t>(width - 1))) % width;
          m.discards[1] = p.cards[second];
        }
      }
      apply(table, s, m);
      ++played;
    }
    for (int i = 0; i < players; ++i)
      nets[d * players + i] = s.phase == Phase::Over ? s.payouts[i] - s.seat[i].put_in : 0;
    actions[d] = played;
    total += played;
  }
  return total;
}

}  // namespace prial::table
