// Draw Brag's betting (docs/rules.md, "Draw Brag"): blinds, a fixed-limit
// round, a draw of zero to three cards, a second round at twice the bets,
// then a showdown.  table.cpp hands start(), legal_actions(), apply() and
// explain() over to these at a Structure::Draw table; turns, chips, events
// and the end of the betting are the machine's own.
#include <algorithm>
#include <string>

#include "prial/cards.hpp"
#include "table_internal.hpp"

namespace prial::table {

namespace {

constexpr int kRaiseCap = 3;  // raises a round while more than two players are in
constexpr int kMaxDraw = 3;

bool is_draw_kind(Kind kind) noexcept {
  return kind == Kind::Look || kind == Kind::Fold || kind == Kind::Check || kind == Kind::Call ||
         kind == Kind::Raise || kind == Kind::Draw;
}

// The round's bets and raises: the first round's, doubled in the second.
Chips unit(const Table& t, const DealState& s) noexcept {
  return s.round == 3 ? 2 * t.config.first_bet : t.config.first_bet;
}

bool half_price(const Table& t, const DealState& s, int i) noexcept {
  return s.seat[i].status == Status::Blind && (t.config.blind_rounds == 2 || s.round == 1);
}

Chips to_call(const DealState& s, int i) noexcept { return s.bet - s.seat[i].level; }

Chips call_price(const Table& t, const DealState& s, int i) noexcept {
  const Chips owed = to_call(s, i);
  return half_price(t, s, i) ? half_up(owed) : owed;
}

// A raise pays the whole bet owed (half price is for calling only) and
// the round's unit on top.
Chips raise_price(const Table& t, const DealState& s, int i) noexcept { return to_call(s, i) + unit(t, s); }

bool affords(const DealState& s, int i, Chips price) noexcept {
  return (!s.stacks || s.seat[i].stack >= price) && s.pot_total() + price <= kMaxChips;
}

bool capped(const DealState& s) noexcept { return s.players_in() > 2 && s.raises >= kRaiseCap; }

// A betting round opens: nobody has acted, nothing is matched.
void open_round(const Table& t, DealState& s, std::uint8_t round) noexcept {
  s.round = round;
  s.raises = 0;
  s.bet = 0;
  s.stake = 0;
  for (int i = 0; i < s.players; ++i) {
    s.seat[i].level = 0;
    s.seat[i].acted = false;
  }
  // The draw goes round from the dealer's left; the second round opens
  // where the first did (after the big blind's seat) or at the small blind.
  const bool after_big = round == 3 && !t.config.second_from_small_blind;
  s.to_act = next_in(s, after_big ? s.big_blind_seat : s.dealer);
}

// After seat i's turn: one player left takes the pot; a finished round
// moves to the draw, the second round or the showdown; else the next seat.
void after_turn(const Table& t, DealState& s, int i, Events* events) {
  if (s.players_in() <= 1) {
    settle(t, s, Ending::FoldedOut, events);
    return;
  }
  bool done = true;
  for (int j = 0; j < s.players && done; ++j) {
    if (!s.in(j)) continue;
    const PlayerState& p = s.seat[j];
    done = s.round == 2 ? p.drawn : p.acted && p.level == s.bet;
  }
  if (!done) {
    s.to_act = next_in(s, i);
    if (s.round == 2)
      while (s.seat[s.to_act].drawn) s.to_act = next_in(s, s.to_act);
    return;
  }
  if (s.round == 3) {
    settle(t, s, Ending::Showdown, events);
    return;
  }
  open_round(t, s, static_cast<std::uint8_t>(s.round + 1));
}

Code check_draw(const Table& t, const DealState& s, const Move& m) {
  const PlayerState& p = s.seat[m.player];
  if (m.ndiscards > kMaxDraw || (m.amount != kNoAmount && m.amount != m.ndiscards)) return Code::DrawCount;
  if (m.ndiscards > 0 && p.status == Status::Blind) return Code::DrawBlind;
  const int pack = t.evaluator->table().pack_size();
  for (int k = 0; k < m.ndiscards; ++k) {
    const Card d = m.discards[k];
    if (p.known ? !holds(p, t.config.cards, d) : d >= pack) return Code::DrawNotHeld;
    for (int j = 0; j < k; ++j)
      if (m.discards[j] == d) return Code::DrawNotHeld;
  }
  return Code::Ok;
}

Code check(const Table& t, const DealState& s, const Move& m) {
  if (s.phase == Phase::Over) return Code::DealOver;
  if (m.player >= s.players) return Code::UnknownPlayer;
  if (m.player != s.to_act) return Code::NotYourTurn;
  if (static_cast<int>(m.kind) >= kKinds || !is_draw_kind(m.kind)) return Code::UnknownAction;
  // A call's or raise's amount is its price, a draw's the count of cards
  // (public, where the cards are not): each optional, and checked.
  const bool priced = m.kind == Kind::Call || m.kind == Kind::Raise || m.kind == Kind::Draw;
  if ((!priced && m.amount != kNoAmount) || (m.kind != Kind::Draw && m.ndiscards != 0)) return Code::BadAmount;
  if (s.round == 2 && m.kind != Kind::Draw && m.kind != Kind::Look && m.kind != Kind::Fold) return Code::MustDraw;
  const int i = m.player;
  const PlayerState& p = s.seat[i];
  switch (m.kind) {
    case Kind::Look:
      return p.status == Status::Blind ? Code::Ok : Code::AlreadyOpen;
    case Kind::Fold:
      return Code::Ok;
    case Kind::Draw:
      return s.round == 2 ? check_draw(t, s, m) : Code::NoDraw;
    case Kind::Check:
      return to_call(s, i) == 0 ? Code::Ok : Code::CheckFacingBet;
    case Kind::Call: {
      if (to_call(s, i) == 0) return Code::NothingToCall;
      const Chips price = call_price(t, s, i);
      if (m.amount != kNoAmount && m.amount != price) return Code::WrongPrice;
      return affords(s, i, price) ? Code::Ok : Code::CannotAfford;
    }
    case Kind::Raise: {
      if (p.status == Status::Blind && !t.config.blind_raise) return Code::BlindNoRaise;
      if (capped(s)) return Code::RaiseCap;
      const Chips price = raise_price(t, s, i);
      if (m.amount != kNoAmount && m.amount != price) return Code::WrongPrice;
      return affords(s, i, price) ? Code::Ok : Code::CannotAfford;
    }
    default:
      return Code::UnknownAction;
  }
}

}  // namespace

void draw_start(const Table& t, DealState& s, Events* events) {
  const TableConfig& c = t.config;
  s.round = 1;
  const std::uint8_t small = next_in(s, s.dealer);
  const std::uint8_t big = next_in(s, small);
  s.big_blind_seat = big;
  put_in(s, small, c.small_blind);
  s.seat[small].level = c.small_blind;
  emit(events, EventKind::Blind, small, c.small_blind);
  put_in(s, big, c.big_blind);
  s.seat[big].level = c.big_blind;
  emit(events, EventKind::Blind, big, c.big_blind);
  s.bet = c.big_blind;
  s.stake = c.big_blind;
  s.to_act = next_in(s, big);
}

int draw_legal_actions(const Table& t, const DealState& s, Legal* out) noexcept {
  int n = 0;
  const int i = s.to_act;
  const PlayerState& p = s.seat[i];
  if (p.status == Status::Blind) out[n++] = Legal{Kind::Look};
  out[n++] = Legal{Kind::Fold};
  if (s.round == 2) {
    out[n++] = Legal{Kind::Draw, 0, p.status == Status::Blind ? 0 : kMaxDraw};
    return n;
  }
  if (to_call(s, i) == 0) {
    out[n++] = Legal{Kind::Check};
  } else if (const Chips price = call_price(t, s, i); affords(s, i, price)) {
    out[n++] = Legal{Kind::Call, price, price};
  }
  const Chips raise = raise_price(t, s, i);
  if (!capped(s) && !(p.status == Status::Blind && !t.config.blind_raise) && affords(s, i, raise))
    out[n++] = Legal{Kind::Raise, raise, raise};
  return n;
}

Code draw_apply(const Table& t, DealState& s, const Move& m, Events* events) {
  const Code code = check(t, s, m);
  if (code != Code::Ok) return code;
  const int i = m.player;
  PlayerState& p = s.seat[i];
  ++s.actions;
  switch (m.kind) {
    case Kind::Look:
      p.status = Status::Open;
      if (p.known) p.seen_by |= 1u << i;
      emit(events, EventKind::Look, i);
      return Code::Ok;
    case Kind::Fold:
      p.status = Status::Folded;
      --s.in_count;
      emit(events, EventKind::Fold, i);
      after_turn(t, s, i, events);
      return Code::Ok;
    case Kind::Check:
      p.acted = true;
      emit(events, EventKind::Check, i);
      after_turn(t, s, i, events);
      return Code::Ok;
    case Kind::Call: {
      const Chips price = call_price(t, s, i);
      put_in(s, i, price);
      p.level = s.bet;
      p.acted = true;
      emit(events, EventKind::Call, i, price, 0);
      after_turn(t, s, i, events);
      return Code::Ok;
    }
    case Kind::Raise: {
      const Chips price = raise_price(t, s, i);
      // The first round is opened by the big blind, the second by a bet,
      // which is not one of the round's raises.
      if (s.bet > 0) ++s.raises;
      s.bet += unit(t, s);
      s.stake = s.bet;
      put_in(s, i, price);
      p.level = s.bet;
      for (int j = 0; j < s.players; ++j) s.seat[j].acted = false;
      p.acted = true;
      emit(events, EventKind::Raise, i, price, 0);
      after_turn(t, s, i, events);
      return Code::Ok;
    }
    case Kind::Draw: {
      // Each discard is replaced where it lay by the next card left in the
      // pack; with those cards unknown the hand becomes unknown.
      for (int k = 0; k < m.ndiscards; ++k) {
        const bool known = s.stub_next < s.stub_size;
        if (p.known && known) *std::find(p.cards.begin(), p.cards.begin() + t.config.cards, m.discards[k]) =
                                  s.stub[s.stub_next];
        if (!known) p.known = false;
        ++s.stub_next;
      }
      p.drawn = true;
      emit(events, EventKind::Draw, i, m.ndiscards);
      after_turn(t, s, i, events);
      return Code::Ok;
    }
    default:
      return Code::UnknownAction;
  }
}

std::string draw_explain(const Table& t, const DealState& s, const Move& m, Code code) {
  const int i = m.player;
  switch (code) {
    case Code::CheckFacingBet:
      return "there is a bet of " + std::to_string(to_call(s, i)) + " to match: call, raise or fold";
    case Code::WrongPrice:
      return std::string("the ") + kind_name(m.kind) + " costs " +
             std::to_string(m.kind == Kind::Call ? call_price(t, s, i) : raise_price(t, s, i));
    case Code::CannotAfford:
      if (!s.stacks) return "a deal holds at most 2**53 chips in all";
      return "the stack holds " + std::to_string(s.seat[i].stack) + " chips";
    default:
      return code_rule(code);
  }
}

}  // namespace prial::table
