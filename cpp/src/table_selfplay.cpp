// Native self-play (table.hpp): many deals played by a policy per seat,
// straight on the transition function, for simulations and benchmarks.
#include <algorithm>
#include <array>
#include <vector>

#include "prial/table.hpp"
#include "splitmix.hpp"

namespace prial::table {

namespace {

// The share of the ruleset's three-card hands each strength beats.
std::vector<double> beaten_share(const ThreeCardTable& three) {
  std::vector<double> share(static_cast<std::size_t>(three.classes()) + 2, 0.0);
  for (std::size_t slot = 0; slot < three.slots(); ++slot) share[three.strength(static_cast<std::uint32_t>(slot)) + 1] += 1;
  double below = 0;
  for (std::size_t s = 0; s < share.size(); ++s) {
    below += share[s];
    share[s] = below / static_cast<double>(three.slots());
  }
  return share;  // share[s]: hands of strength below s
}

Move random_move(const Table& table, const DealState& s, const Legal* legal, int n, SplitMix64& rng) {
  const Legal& l = legal[rng.below_roughly(static_cast<unsigned>(n))];
  Move m;
  m.kind = l.kind;
  m.player = s.to_act;
  if (l.kind == Kind::Stake || l.kind == Kind::Sideshow) {
    const Chips most = l.most == kNoLimit ? 4 * l.least : l.most;
    m.amount = l.least + static_cast<Chips>(rng.next() % static_cast<std::uint64_t>(most - l.least + 1));
  } else if (l.kind == Kind::Discard) {
    const int width = table.config.cards;
    const PlayerState& p = s.seat[s.to_act];
    m.ndiscards = table.config.discards;
    const unsigned first = rng.below_roughly(static_cast<unsigned>(width));
    m.discards[0] = p.cards[first];
    if (m.ndiscards == 2) m.discards[1] = p.cards[(first + 1 + rng.below_roughly(static_cast<unsigned>(width - 1))) % width];
  } else if (l.kind == Kind::Draw) {
    // A uniform count, then that many distinct cards, uniform.
    std::array<Card, 5> cards = s.seat[s.to_act].cards;
    m.ndiscards = static_cast<std::uint8_t>(l.least + rng.below_roughly(static_cast<unsigned>(l.most - l.least + 1)));
    for (int k = 0; k < m.ndiscards; ++k) {
      std::swap(cards[k], cards[k + rng.below_roughly(static_cast<unsigned>(table.config.cards - k))]);
      m.discards[k] = cards[k];
    }
  }
  return m;
}

Move threshold_move(const Table& table, const DealState& s, const Legal* legal, int n, double threshold,
                    const std::vector<double>& beaten) {
  const PlayerState& p = s.seat[s.to_act];
  Move m;
  m.player = s.to_act;
  auto has = [&](Kind kind) -> const Legal* {
    for (int k = 0; k < n; ++k)
      if (legal[k].kind == kind) return &legal[k];
    return nullptr;
  };
  if (has(Kind::Accept)) {
    m.kind = Kind::Accept;
    return m;
  }
  if (has(Kind::Look)) {
    m.kind = Kind::Look;
    return m;
  }
  if (has(Kind::Discard)) {
    const BestChoice best = table.best_of->choose(p.cards.data(), table.config.cards);
    m.kind = Kind::Discard;
    m.ndiscards = static_cast<std::uint8_t>(best.discards);
    std::copy(best.discarded.begin(), best.discarded.end(), m.discards.begin());
    return m;
  }
  const double share = beaten[strength_of_key(hand_key(table, p))];
  if (table.config.structure == Structure::Draw) {
    // Draw Brag: stand pat and call (or check) at or above the threshold;
    // below it, draw three and check, or fold to a bet.
    if (has(Kind::Draw)) {
      m.kind = Kind::Draw;
      if (share < threshold)
        for (; m.ndiscards < 3; ++m.ndiscards) m.discards[m.ndiscards] = p.cards[m.ndiscards];
      return m;
    }
    m.kind = has(Kind::Check) ? Kind::Check : share >= threshold && has(Kind::Call) ? Kind::Call : Kind::Fold;
    return m;
  }
  if (share >= threshold) {
    if (has(Kind::See)) {
      m.kind = Kind::See;
      return m;
    }
    if (const Legal* stake = has(Kind::Stake)) {
      m.kind = Kind::Stake;
      m.amount = stake->least;
      return m;
    }
    if (has(Kind::Cover)) {
      m.kind = Kind::Cover;
      return m;
    }
  }
  m.kind = Kind::Fold;
  return m;
}

}  // namespace

std::uint64_t self_play(const Table& table, int players, const SeatPolicy* policies, std::size_t deals,
                        std::uint64_t seed, Chips stack, Chips* nets, std::uint32_t* actions) {
  check_players(table, players);
  const int width = table.config.cards;
  const int pack_size = table.evaluator->table().pack_size();
  const bool draw = table.config.structure == Structure::Draw;
  const std::vector<double> beaten = beaten_share(table.evaluator->table());
  std::vector<Card> pack(static_cast<std::size_t>(pack_size));
  std::vector<Card> hands(static_cast<std::size_t>(players) * width);
  std::vector<Chips> stacks(static_cast<std::size_t>(players), stack);
  const std::uint32_t everyone = (std::uint32_t{1} << players) - 1;
  std::uint64_t total = 0;
  DealState s;
  Legal legal[kMaxLegal];
  for (std::size_t d = 0; d < deals; ++d) {
    const int dealer = static_cast<int>(d % static_cast<std::size_t>(players));
    const int dealt = players * width;
    shuffled_pack(seed + d, pack_size, pack.data(), draw ? pack_size : dealt);
    deal_hands(pack.data(), players, dealer, width, everyone, hands.data());
    Setup setup{players, dealer, stack == kNoLimit ? nullptr : stacks.data(), hands.data()};
    if (draw) {  // the draw deals on from the rest of the pack
      setup.stub = pack.data() + dealt;
      setup.stub_size = pack_size - dealt;
    }
    start(table, setup, s);
    SplitMix64 rng{(seed + d) ^ 0x9E3779B97F4A7C15ull};
    std::uint32_t played = 0;
    while (s.phase != Phase::Over && played < kSelfPlayMaxActions) {
      const int n = legal_actions(table, s, legal);
      const SeatPolicy& policy = policies[s.to_act];
      const Move m = policy.policy == Policy::Random ? random_move(table, s, legal, n, rng)
                                                     : threshold_move(table, s, legal, n, policy.threshold, beaten);
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
