// Native replay of many deals' actions (table.hpp): the floor that hand
// histories are checked on.
#include <algorithm>
#include <atomic>

#include "parallel.hpp"
#include "prial/table.hpp"

namespace prial::table {

namespace {

// Deals below which another thread costs more than it saves (a deal is
// about a microsecond).
constexpr std::size_t kMinDealsPerThread = 4096;

std::uint64_t replay_one(const Table& table, const ReplayInput& in, const ReplayOutput& out, std::size_t d) {
  const std::size_t seats = in.seats;
  Chips* payouts = out.payouts + d * seats;
  Chips* put_in = out.put_in + d * seats;
  std::fill(payouts, payouts + seats, Chips{0});
  std::fill(put_in, put_in + seats, Chips{0});
  std::fill(out.pot_winners + d * kMaxPots, out.pot_winners + (d + 1) * kMaxPots, 0u);
  std::fill(out.pots + d * kMaxPots, out.pots + (d + 1) * kMaxPots, Chips{0});
  out.first_bad[d] = -1;
  out.code[d] = static_cast<std::uint8_t>(Code::Ok);
  out.ending[d] = static_cast<std::uint8_t>(Ending::None);
  const int players = in.players[d];
  DealState s;
  try {
    if (players > static_cast<int>(seats)) throw InvalidHand("more players than seats");
    Setup setup{players, in.dealers[d], in.stacks ? in.stacks + d * seats : nullptr,
                in.cards + d * seats * table.config.cards};
    if (in.stub != nullptr) {
      setup.stub = in.stub + d * in.stub_width;
      while (static_cast<std::size_t>(setup.stub_size) < in.stub_width && setup.stub[setup.stub_size] != kUnknownCard)
        ++setup.stub_size;
    }
    start(table, setup, s);
  } catch (const InvalidHand&) {
    out.status[d] = static_cast<std::uint8_t>(ReplayStatus::BadSetup);
    return 0;
  }
  std::uint64_t applied = 0;
  for (std::int64_t a = in.offsets[d]; a < in.offsets[d + 1]; ++a) {
    Move m;
    m.kind = static_cast<Kind>(std::min<int>(in.kinds[a], kKinds));
    m.player = in.actors[a] < players ? in.actors[a] : kNobody;
    m.amount = in.amounts[a] == -1 ? kNoAmount : std::clamp(in.amounts[a], -kAmountLimit, kAmountLimit);
    const std::size_t width = std::min(in.discard_width, m.discards.size());
    for (std::size_t k = 0; k < width; ++k)
      if (in.discards[in.discard_width * a + k] != kUnknownCard) m.discards[m.ndiscards++] = in.discards[in.discard_width * a + k];
    const Code code = apply(table, s, m);
    if (code != Code::Ok) {
      out.first_bad[d] = a - in.offsets[d];
      out.code[d] = static_cast<std::uint8_t>(code);
      break;
    }
    ++applied;
  }
  for (int i = 0; i < players; ++i) {
    payouts[i] = s.payouts[i];
    put_in[i] = s.seat[i].put_in;
  }
  for (int k = 0; k < s.npots; ++k) {
    out.pot_winners[d * kMaxPots + k] = s.pot_winners[k];
    out.pots[d * kMaxPots + k] = s.pots[k].amount;
  }
  out.ending[d] = static_cast<std::uint8_t>(s.ending);
  ReplayStatus status = ReplayStatus::Unfinished;
  if (out.first_bad[d] >= 0) status = ReplayStatus::Illegal;
  else if (s.phase == Phase::Over) status = s.known ? ReplayStatus::Over : ReplayStatus::Unknown;
  out.status[d] = static_cast<std::uint8_t>(status);
  return applied;
}

}  // namespace

std::uint64_t replay(const Table& table, const ReplayInput& in, const ReplayOutput& out, int threads) {
  std::atomic<std::uint64_t> applied{0};
  parallel_for(
      in.deals, threads,
      [&](std::size_t begin, std::size_t end) {
        std::uint64_t mine = 0;
        for (std::size_t d = begin; d < end; ++d) mine += replay_one(table, in, out, d);
        applied += mine;
      },
      kMinDealsPerThread);
  return applied;
}

}  // namespace prial::table
