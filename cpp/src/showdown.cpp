#include "prial/showdown.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "batch_rows.hpp"
#include "bestof_kernels.hpp"
#include "kernels.hpp"
#include "portable.hpp"

namespace prial {
namespace {

// Rows between cancellation checks: ~11 ms on one core for five cards with
// the portable see kernel (40 ns a row), ~6 ms with AVX2, ~3 ms for three
// cards with the portable kernel.
constexpr std::size_t kShowdownChunk = std::size_t{1} << 18;

// Every row through `compare_rows(begin, end) -> bad` (outcomes into out),
// in parallel chunks; returns the first invalid row or kNoBadRow.
template <class CompareRows>
std::size_t showdown_rows(const Card* seer, const Card* seen, std::size_t rows, std::size_t width, int pack_size,
                          int threads, const CancelFlag* cancel, const CompareRows& compare_rows) {
  return first_bad_row(rows, threads, kShowdownChunk, cancel, compare_rows, [&](std::size_t row) {
    return !explain_showdown_row(pack_size, seer, seen, row, width).empty();
  });
}

}  // namespace

std::size_t showdown_batch(const Evaluator& ev, const BestOfTable& table, const Card* seer,
                           const Card* seen, std::size_t rows, std::size_t width, std::uint8_t* out,
                           int threads, const CancelFlag* cancel) {
  if (width < 3 || width > 5) {
    throw InvalidHand("showdowns take 3, 4 or 5 cards a hand, got " + std::to_string(width));
  }
  throw_if_cancelled(cancel);  // before a key table is built
  const int pack = table.pack_size();
  if (width == 3) {
    const ThreeCardTable& three = ev.table();
    const KernelTables tables{three.strengths(), static_cast<unsigned>(pack), three.by_rank_low(),
                              three.by_rank_high()};
    const ThreeCardShowdownKernel kernel = three_card_showdown_kernel();
    return showdown_rows(seer, seen, rows, 3, pack, threads, cancel, [&](std::size_t begin, std::size_t end) {
      return kernel(seer + 3 * begin, seen + 3 * begin, end - begin, out + begin, tables);
    });
  }
  const BestKey* keys = table.keys(width);  // built once here, not raced for by the worker threads
#if defined(PRIAL_HAVE_X86_KERNELS)
  const BestKey* by_rank = table.by_rank_keys(width);
  const bool avx2 = simd_level() >= SimdLevel::kAvx2;
#endif
  const auto see = [&](std::size_t begin, std::size_t end) {
#if defined(PRIAL_HAVE_X86_KERNELS)
    if (avx2) {
      return best_of_see_rows_avx2(seer + width * begin, seen + width * begin, end - begin, width, out + begin,
                                   keys, by_rank, static_cast<unsigned>(pack));
    }
#endif
    return best_of_see_rows_scalar(seer + width * begin, seen + width * begin, end - begin, width, out + begin,
                                   keys, static_cast<unsigned>(pack));
  };
  return showdown_rows(seer, seen, rows, width, pack, threads, cancel, see);
}

std::string explain_showdown_row(int pack_size, const Card* seer, const Card* seen, std::size_t row,
                                 std::size_t width, ShowdownSide* side) {
  const Card* a = seer + width * row;
  const Card* b = seen + width * row;
  const std::string where = "row " + std::to_string(row) + ": ";
  if (side) *side = ShowdownSide::Seer;
  std::string problem = hand_problem(a, width, pack_size);
  if (!problem.empty()) return where + "seer: " + problem;
  problem = hand_problem(b, width, pack_size);
  if (!problem.empty()) {
    if (side) *side = ShowdownSide::Seen;
    return where + "seen: " + problem;
  }
  for (std::size_t i = 0; i < width; ++i) {
    for (std::size_t j = 0; j < width; ++j) {
      if (a[i] == b[j]) {
        return where + "card " + format_card(a[i]) + " is in both hands (card " + std::to_string(i + 1) +
               " of the seer's, card " + std::to_string(j + 1) + " of the seen's)";
      }
    }
  }
  return {};
}

// ---- one showdown ---------------------------------------------------------

std::string quoted(const std::string& text) {
  const bool double_quotes = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  std::string out(1, quote);
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char code[5];
      std::snprintf(code, sizeof code, "\\x%02x", c);
      out += code;
    } else {
      out += ch;
    }
  }
  out += quote;
  return out;
}

namespace {

std::string player_name(const Seat& seat) { return "player " + quoted(seat.id); }

// An error about the player in seat `seat`: located at that seat of the
// call's players.
InvalidShowdown seat_error(std::size_t seat, const std::string& message) {
  return InvalidShowdown(message, static_cast<long long>(seat), kPlayersField);
}

std::string id_list(const std::vector<Seat>& players) {
  std::string out;
  for (const Seat& p : players) out += (out.empty() ? "" : ", ") + p.id;
  return out;
}

std::size_t seat_of(const std::vector<Seat>& players, const std::string& id) {
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (players[i].id == id) return i;
  }
  return players.size();
}

// The table rules that do not depend on the hands' values: players, ids,
// hand sizes and no card dealt twice.
void check_table(const ShowdownCall& call) {
  const std::vector<Seat>& players = call.players;
  if (players.size() < 2) {
    throw InvalidShowdown("a showdown needs at least 2 players, got " + std::to_string(players.size()));
  }
  std::unordered_set<std::string_view> ids;  // a request may name many players: no quadratic scan
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (players[i].id.empty()) {
      throw seat_error(i, "player " + std::to_string(i) + ": id must be a non-empty string, got ''");
    }
    if (!ids.insert(players[i].id).second) {
      throw seat_error(i, "player id " + quoted(players[i].id) + " is used twice");
    }
  }
  const std::size_t width = call.cards_per_hand ? call.cards_per_hand : players[0].cards.size();
  if (width < 3 || width > 5) {
    throw InvalidShowdown("cards_per_hand must be 3, 4 or 5, got " + std::to_string(width));
  }
  for (std::size_t i = 0; i < players.size(); ++i) {
    const Seat& p = players[i];
    if (p.cards.size() != width) {
      throw seat_error(i, player_name(p) + " has " + std::to_string(p.cards.size()) +
                              " cards; every hand must have " + std::to_string(width));
    }
  }
  // Where each card was first seen: a seat index, or none.
  std::vector<std::size_t> holder(kMaxPack, players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    for (const Card c : players[i].cards) {
      if (c >= kMaxPack) {
        throw InvalidHand(player_name(players[i]) + ": card index " + std::to_string(c) +
                          " is out of range (0.." + std::to_string(kMaxPack - 1) + ")",
                          static_cast<long long>(i), kPlayersField);
      }
      const std::size_t other = holder[c];
      if (other == i) {
        throw seat_error(i, "card " + format_card(c) + " appears twice in " + player_name(players[i]));
      }
      if (other != players.size()) {
        throw seat_error(i, "card " + format_card(c) + " appears in both " + player_name(players[other]) +
                                " and " + player_name(players[i]));
      }
      holder[c] = i;
    }
  }
}

SeatHand value_hand(const Evaluator& ev, const BestOfTable& table, const Seat& seat) {
  SeatHand hand;
  const std::string where = player_name(seat);
  if (seat.cards.size() == 3) {
    hand.slot = ev.slot(seat.cards.data(), 3, where);
    hand.strength = ev.table().strength(hand.slot);
    hand.key = hand.strength;
    hand.kept = seat.cards;
    return hand;
  }
  const BestChoice c = table.choose(seat.cards.data(), seat.cards.size(), where);
  hand.slot = c.slot;
  hand.strength = strength_of_key(c.key);
  hand.key = c.key;
  hand.kept.assign(c.kept.begin(), c.kept.end());
  hand.discarded.assign(c.discarded.begin(), c.discarded.begin() + c.discards);
  return hand;
}

// Names the discard tie-break compares: by rank, suits never rank, a joker
// above an ace (bestof.hpp); higher first.
std::vector<std::string> discard_names(const SeatHand& hand) {
  std::vector<unsigned> codes;
  for (const Card c : hand.discarded) codes.push_back(discard_code(c));
  std::sort(codes.begin(), codes.end(), std::greater<unsigned>());
  std::vector<std::string> names;
  for (const unsigned code : codes) {
    names.push_back(code == kJokerDiscardCode ? "joker" : std::string(1, rank_char(static_cast<int>(code) - 1)));
  }
  return names;
}

struct Comparison {
  std::string reason;
  const char* decided_by;
};

class Judge {
 public:
  Judge(const ThreeCardTable& three, const std::vector<SeatHand>& hands) : three_(three), hands_(hands) {}

  std::string description(std::size_t seat) const { return three_.description(hands_[seat].slot); }

  // Why `better` beats `worse` (their keys differ).
  Comparison compare(std::size_t better, std::size_t worse) const {
    const SeatHand& b = hands_[better];
    const SeatHand& w = hands_[worse];
    if (b.strength != w.strength) return {description(better) + " beats " + description(worse), "hand"};
    const std::vector<std::string> hi = discard_names(b), lo = discard_names(w);
    for (std::size_t i = 0; i < std::min(hi.size(), lo.size()); ++i) {
      if (hi[i] != lo[i]) return {"discard decides: " + hi[i] + " beats " + lo[i], "discard"};
    }
    throw std::logic_error("keys differ but neither the three nor the discards do");
  }

  Award see(std::size_t seer, std::size_t seen) const {
    if (hands_[seer].key > hands_[seen].key) {
      Comparison c = compare(seer, seen);
      return {{seer}, "seer wins: " + c.reason, c.decided_by};
    }
    if (hands_[seen].key > hands_[seer].key) {
      Comparison c = compare(seen, seer);
      return {{seen}, "seen player wins: " + c.reason, c.decided_by};
    }
    return {{seen}, "exact tie (" + description(seer) + "): seer loses ties", "seer_loses_ties"};
  }

  Award agreed(const std::vector<std::size_t>& contenders) const {
    BestKey best = 0;
    for (const std::size_t i : contenders) best = std::max(best, hands_[i].key);
    Award award;
    for (const std::size_t i : contenders) {
      if (hands_[i].key == best) award.winners.push_back(i);
    }
    const std::size_t top = award.winners.front();
    if (award.winners.size() > 1) {
      award.reason = "exact tie (" + description(top) + "): pot shared";
      award.decided_by = "shared";
      return award;
    }
    std::size_t runner_up = contenders.size();  // the first of the strongest of the rest
    for (const std::size_t i : contenders) {
      if (i != top && (runner_up == contenders.size() || hands_[i].key > hands_[runner_up].key)) runner_up = i;
    }
    Comparison c = compare(top, runner_up);
    award.reason = "strongest hand wins: " + c.reason;
    award.decided_by = c.decided_by;
    return award;
  }

  // The old pot: the coverer's hand against the new pot's (first) winner's.
  Award cover(std::size_t coverer, const Award& new_pot) const {
    const std::size_t winner = new_pot.winners.front();
    if (hands_[coverer].key > hands_[winner].key) {
      Comparison c = compare(coverer, winner);
      return {{coverer}, "coverer takes the old pot: " + c.reason, c.decided_by};
    }
    if (hands_[winner].key > hands_[coverer].key) {
      Comparison c = compare(winner, coverer);
      return {new_pot.winners, "new pot's winner takes the old pot: " + c.reason, c.decided_by};
    }
    return {new_pot.winners, "exact tie (" + description(coverer) + "): the old pot goes to the new pot's winner",
            "tie_to_new_pot_winner"};
  }

 private:
  const ThreeCardTable& three_;
  const std::vector<SeatHand>& hands_;
};

// `amount` shared among `winners` in equal whole chips, the odd chips one
// each to the winners in seat order.
void pay(std::vector<std::uint64_t>& payouts, std::uint64_t amount, const std::vector<std::size_t>& winners) {
  const std::uint64_t share = amount / winners.size();
  const std::uint64_t odd = amount % winners.size();
  for (std::size_t i = 0; i < winners.size(); ++i) payouts[winners[i]] += share + (i < odd ? 1 : 0);
}

std::uint64_t add_chips(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum;
  if (portable::add_overflows(a, b, &sum)) {
    throw InvalidShowdown("the chips in play add up to more than " +
                          std::to_string(std::numeric_limits<std::uint64_t>::max()));
  }
  return sum;
}

}  // namespace

ShowdownOutcome decide_showdown(const Evaluator& ev, const BestOfTable& table, const ShowdownCall& call) {
  const std::vector<Seat>& players = call.players;
  check_table(call);
  ShowdownOutcome out;
  for (std::size_t i = 0; i < players.size(); ++i) {
    try {
      out.hands.push_back(value_hand(ev, table, players[i]));
    } catch (InvalidHand& e) {
      e.locate(static_cast<long long>(i), kPlayersField);
      throw;
    }
  }

  const std::size_t none = players.size();
  std::size_t coverer = none;
  if (call.coverer) {
    coverer = seat_of(players, *call.coverer);
    if (coverer == none) {
      throw InvalidShowdown("coverer " + quoted(*call.coverer) + " is not a player (players: " + id_list(players) + ")");
    }
  }
  if (coverer == none && call.old_pot) throw InvalidShowdown("old_pot is given but no coverer");
  if (coverer != none && players[coverer].stake) {
    throw seat_error(coverer, "coverer " + quoted(players[coverer].id) + " has stake " +
                                  std::to_string(players[coverer].stake) + "; their chips belong in old_pot");
  }
  std::vector<std::size_t> contenders;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (i != coverer) contenders.push_back(i);
  }
  if (contenders.size() < 2) throw InvalidShowdown("the new pot needs at least 2 players besides the coverer");

  const Judge judge(ev.table(), out.hands);
  if (call.seer) {
    const std::size_t seer = seat_of(players, *call.seer);
    if (seer == none) {
      throw InvalidShowdown("seer " + quoted(*call.seer) + " is not a player (players: " + id_list(players) + ")");
    }
    if (seer == coverer) {
      throw seat_error(seer, "seer " + quoted(*call.seer) + " covered the pot and is out of the betting");
    }
    if (contenders.size() != 2) {
      throw InvalidShowdown("a see is between two players; " + std::to_string(contenders.size()) +
                            " are in the pot (without a seer, the showdown is an agreed one)");
    }
    const std::size_t seen = contenders[0] == seer ? contenders[1] : contenders[0];
    if (players[seen].blind && !players[seer].blind) {
      throw seat_error(seer, "you cannot see a blind man: open player " + quoted(players[seer].id) +
                                 " cannot see blind player " + quoted(players[seen].id));
    }
    out.see = true;
    out.award = judge.see(seer, seen);
  } else {
    out.award = judge.agreed(contenders);
  }

  out.new_pot = call.pot;
  for (const std::size_t i : contenders) out.new_pot = add_chips(out.new_pot, players[i].stake);
  add_chips(out.new_pot, call.old_pot);  // every payout then fits too
  if (coverer != none) out.cover = judge.cover(coverer, out.award);
  if (out.new_pot || call.old_pot) {
    out.payouts.assign(players.size(), 0);
    pay(out.payouts, out.new_pot, out.award.winners);
    if (out.cover) pay(out.payouts, call.old_pot, out.cover->winners);
  }
  return out;
}

}  // namespace prial
