// The end of the betting (table_internal.hpp): who is shown what, who takes
// each pot, and the payouts, newest pot first.
#include <algorithm>

#include "prial/cards.hpp"
#include "table_internal.hpp"

namespace prial::table {

BestKey hand_key(const Table& t, const PlayerState& p) {
  const int cards = t.config.cards;
  if (p.ndiscards == 0) return t.best_of->key(p.cards.data(), static_cast<std::size_t>(cards));
  std::array<Card, 3> kept{};
  int k = 0;
  for (int c = 0; c < cards; ++c) {
    const Card card = p.cards[c];
    if (std::find(p.discards.begin(), p.discards.begin() + p.ndiscards, card) == p.discards.begin() + p.ndiscards)
      kept[k++] = card;
  }
  const Evaluator& ev = *t.evaluator;
  const Strength strength = ev.table().strength(ev.slot(kept.data(), 3));
  return make_key(strength, discard_code(p.discards[0]), p.ndiscards > 1 ? discard_code(p.discards[1]) : 0);
}

namespace {

// Shows seat i's hand to the seats of `to` that have not seen it.
void show(DealState& s, int i, std::uint32_t to, Events* events) {
  PlayerState& p = s.seat[i];
  const std::uint32_t fresh = to & ~p.seen_by;
  if (fresh == 0) return;
  p.seen_by |= fresh;
  emit(events, EventKind::Show, i, 0, 0, fresh);
}

// The pot's chips to its winners: equal whole chips, the odd ones one each
// in turn order from the dealer's left.
void pay(DealState& s, int pot, std::uint32_t winners, Events* events) {
  const Chips amount = s.pots[pot].amount;
  const int count = __builtin_popcount(winners);
  const Chips share = amount / count;
  Chips odd = amount % count;
  for (int k = 1; k <= s.players; ++k) {
    const int i = (s.dealer + k) % s.players;
    if (!(winners >> i & 1u)) continue;
    const Chips chips = share + (odd > 0 ? 1 : 0);
    if (odd > 0) --odd;
    if (chips == 0) continue;
    s.payouts[i] += chips;
    if (s.stacks) s.seat[i].stack += chips;
    emit(events, EventKind::Win, i, chips, pot, 0);
  }
}

// A player still holding two hands at the end plays the better of them.
void keep_better(const Table& t, PlayerState& p) {
  if (p.hands != 2) return;
  p.hands = 1;
  if (!p.known || !p.second_known) {
    p.known = false;
    return;
  }
  PlayerState retained = p;
  retained.cards = p.second;
  if (hand_key(t, retained) > hand_key(t, p)) p.cards = p.second;
}

void end_unknown(DealState& s) {
  s.known = false;
  s.pot_winners = {};
}

}  // namespace

bool side_compare(const Table& t, DealState& s, int asker, int asked, Events* events) {
  if (!s.seat[asker].known || !s.seat[asked].known) {
    s.phase = Phase::Over;
    s.to_act = kNobody;
    s.ending = Ending::Unknown;
    end_unknown(s);
    return false;
  }
  show(s, asker, 1u << asked, events);
  show(s, asked, 1u << asker, events);
  const int loser = hand_key(t, s.seat[asked]) >= hand_key(t, s.seat[asker]) ? asker : asked;
  s.seat[loser].status = Status::Folded;
  --s.in_count;
  s.seat[loser].agreed = false;
  emit(events, EventKind::Fold, loser, 0, 0, 0);
  return true;
}

void settle(const Table& t, DealState& s, Ending ending, Events* events) {
  s.phase = Phase::Over;
  s.to_act = kNobody;
  s.ending = ending;
  const std::uint32_t everyone = s.all_seats();
  auto known = [&](std::uint32_t seats) {
    for (int i = 0; i < s.players; ++i)
      if ((seats >> i & 1u) && !s.seat[i].known) return false;
    return true;
  };
  std::uint32_t in = 0;
  for (int i = 0; i < s.players; ++i)
    if (s.in(i)) in |= 1u << i;
  if (ending == Ending::FoldedOut && t.config.retain_blind != Retain::No && s.npots == 1 &&
      s.seat[__builtin_ctz(in)].status == Status::Blind) {
    // Folded to a blind player: nobody takes the pot; it stays for the next deal.
    s.pot_stays = true;
    s.retainer = static_cast<std::uint8_t>(__builtin_ctz(in));
    emit(events, EventKind::Stays, s.retainer, s.pots[0].amount, 0, 0);
    return;
  }
  for (int i = 0; i < s.players; ++i)
    if (s.in(i) || s.seat[i].status == Status::Covered) keep_better(t, s.seat[i]);

  // The newest pot's winners, and the best key among them once compared.
  const int newest = s.npots - 1;
  std::uint32_t winners = 0;
  bool compared = false;
  BestKey best = 0;
  if (ending == Ending::FoldedOut) {
    winners = in;
  } else if (ending == Ending::See) {
    const int seer = s.seer;
    const int seen = __builtin_ctz(in & ~(1u << seer));
    if (!known(in)) return end_unknown(s);
    show(s, seen, everyone, events);
    const BestKey seer_key = hand_key(t, s.seat[seer]);
    const BestKey seen_key = hand_key(t, s.seat[seen]);
    if (seer_key > seen_key) {
      show(s, seer, everyone, events);
      winners = 1u << seer;
      best = seer_key;
    } else {
      winners = 1u << seen;
      best = seen_key;
    }
    compared = true;
  } else {  // a showdown of every player in
    if (!known(in)) return end_unknown(s);
    for (int k = 1; k <= s.players; ++k) {
      const int i = (s.dealer + k) % s.players;
      if (!(in >> i & 1u)) continue;
      show(s, i, everyone, events);
      const BestKey key = hand_key(t, s.seat[i]);
      if (key > best || winners == 0) {
        best = key;
        winners = 1u << i;
      } else if (key == best) {
        winners |= 1u << i;
      }
    }
    compared = true;
  }
  s.pot_winners[newest] = winners;

  // Each older pot: its coverer against the best of the next pot's winners.
  for (int pot = newest - 1; pot >= 0; --pot) {
    const int coverer = s.pots[pot].coverer;
    if (!known(winners | 1u << coverer)) return end_unknown(s);
    if (!compared) {
      best = 0;
      for (int i = 0; i < s.players; ++i)
        if (winners >> i & 1u) best = std::max(best, hand_key(t, s.seat[i]));
      compared = true;
    }
    for (int i = 0; i < s.players; ++i)
      if (winners >> i & 1u) show(s, i, everyone, events);
    show(s, coverer, everyone, events);
    const BestKey key = hand_key(t, s.seat[coverer]);
    if (key > best) {
      winners = 1u << coverer;
      best = key;
    }
    s.pot_winners[pot] = winners;
  }
  for (int pot = newest; pot >= 0; --pot) pay(s, pot, s.pot_winners[pot], events);
}

}  // namespace prial::table
