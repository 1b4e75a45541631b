// The betting table's transition function (table.hpp): the start of a
// deal, the legal actions and apply().  The end of the betting is in
// table_settle.cpp, the seeded pack in table_pack.cpp.
#include "prial/table.hpp"

#include <algorithm>
#include <string>

#include "prial/cards.hpp"
#include "prial/showdown.hpp"  // quoted()
#include "table_internal.hpp"

namespace prial::table {

namespace {

constexpr const char* kKindNames[kKinds] = {"look",    "discard",  "stake",  "see",     "fold",
                                            "cover",   "sideshow", "accept", "decline", "agree_showdown",
                                            "check",   "call",     "raise",  "draw"};

struct CodeText {
  const char* name;
  const char* rule;
};
constexpr CodeText kCodeTexts[kCodes] = {
    {"ok", "allowed"},
    {"deal_over", "the deal has ended"},
    {"unknown_player", "the player is not at the table"},
    {"not_your_turn", "only the player to act may act"},
    {"unknown_action", "not an action of this game"},
    {"answer_sideshow", "the player asked for a sideshow may only accept or decline"},
    {"no_sideshow", "nobody has asked for a sideshow"},
    {"must_discard", "a player who has just looked must discard first"},
    {"no_discard", "no discard is due"},
    {"blind_turns_over", "a blind player past the blind-turn limit may only look or fold"},
    {"bad_amount", "the action takes no amount or discards of that kind"},
    {"must_beat_face_up", "while a hand dealt face up is held, every other player who has looked must beat it or fold"},
    {"already_open", "only a blind player may look"},
    {"discard_count", "the wrong number of discards"},
    {"discard_not_held", "a discarded card must be one of the player's cards"},
    {"sideshow_not_allowed", "sideshows are not played at this table"},
    {"sideshow_blind", "a blind player cannot ask for a sideshow"},
    {"sideshow_needs_three", "a sideshow needs three or more players in"},
    {"sideshow_no_one", "a sideshow is asked of the nearest player who has staked, and only if that player is open"},
    {"stake_below_least", "a stake must be at least the least stake"},
    {"cannot_afford", "the player's stack cannot pay it (or, without stacks, the deal would hold over 2**53 chips)"},
    {"stake_above_most", "a stake may be at most the most stake, and a deal holds at most 2**53 chips"},
    {"see_needs_two", "a see needs exactly two players in"},
    {"see_before_stake", "a see needs a stake made in the deal first"},
    {"see_blind_man", "an open player cannot see a blind player"},
    {"see_two_hands", "a player holding two hands can neither see nor be seen"},
    {"see_price", "a see costs exactly its price"},
    {"cover_not_allowed", "covering the pot is not played at this table"},
    {"cover_can_pay", "a player who can pay the least stake cannot cover"},
    {"agree_not_allowed", "agreed showdowns are not played at this table"},
    {"agree_needs_three", "an agreed showdown needs three or more players in"},
    {"check_facing_bet", "a player facing a bet must call, raise or fold"},
    {"nothing_to_call", "there is no bet to call: check or raise"},
    {"raise_cap", "at most three raises a round while more than two players are in"},
    {"blind_no_raise", "a blind player may not raise at this table"},
    {"must_draw", "in the draw a player may only draw, look or fold"},
    {"no_draw", "the draw comes between the two betting rounds"},
    {"draw_count", "a draw discards from zero to three cards"},
    {"draw_not_held", "a discarded card must be one of the player's cards, each once"},
    {"draw_blind", "a blind player may only stand pat (draw no card); look first to draw"},
    {"wrong_price", "a call or a raise costs exactly its price"},
};

constexpr const char* kEventNames[] = {"ante",    "deal",   "look",     "discard", "stake",
                                       "see",     "fold",   "cover",    "sideshow", "accept",
                                       "decline", "agree_showdown", "sit_out", "fold_hand", "stays",
                                       "show", "win", "blind", "check", "call", "raise", "draw"};

// The nearest player in counter-clockwise from `from` who has staked in
// this deal: the one a sideshow is asked of.
std::uint8_t sideshow_target(const DealState& s, int from) noexcept {
  for (int k = 1; k < s.players; ++k) {
    const int i = (from - k + s.players) % s.players;
    if (s.in(i) && s.seat[i].staked) return static_cast<std::uint8_t>(i);
  }
  return kNobody;
}

bool blind_turns_over(const Table& t, const PlayerState& p) noexcept {
  return p.status == Status::Blind && t.config.blind_turns >= 0 && p.blind_stakes >= t.config.blind_turns;
}

// The other player in, when exactly two are.
int other_in(const DealState& s, int i) noexcept {
  for (int j = 0; j < s.players; ++j)
    if (j != i && s.in(j)) return j;
  return -1;
}

// A player with a stack below their least stake at a table without
// covering may only fold.
bool must_fold(const Table& t, const DealState& s, int i) noexcept {
  return s.stacks && !t.config.cover && s.seat[i].stack < least_stake(s, i);
}

// The hand dealt face up as it plays now: every card of it while its
// holder still holds two hands, the kept three and discards once kept.
PlayerState face_up_hand(const DealState& s) noexcept {
  const PlayerState& holder = s.seat[s.face_up];
  if (holder.hands == 1) return holder;
  PlayerState hand;
  hand.cards = holder.second;
  hand.known = holder.second_known;
  return hand;
}

// Seat i has looked and its hand does not beat the hand dealt face up,
// which someone else still holds: it may only fold.  Unknown cards on
// either side cannot be compared, and leave every action open.
bool must_beat_face_up(const Table& t, const DealState& s, int i) {
  if (s.face_up == kNobody || !s.face_up_held || s.face_up == i || !s.in(s.face_up)) return false;
  const PlayerState& p = s.seat[i];
  if (p.status != Status::Open || !p.known) return false;
  const PlayerState hand = face_up_hand(s);
  return hand.known && hand_key(t, p) <= hand_key(t, hand);
}

Chips see_price(const Table& t, const DealState& s, int i) noexcept {
  return static_cast<Chips>(t.config.see_cost) * least_stake(s, i);
}

}  // namespace

const char* kind_name(Kind kind) noexcept { return kKindNames[static_cast<int>(kind)]; }
const char* code_name(Code code) noexcept { return kCodeTexts[static_cast<int>(code)].name; }
const char* code_rule(Code code) noexcept { return kCodeTexts[static_cast<int>(code)].rule; }
const char* event_name(EventKind kind) noexcept { return kEventNames[static_cast<int>(kind)]; }

std::uint8_t next_in(const DealState& s, int from) noexcept {
  for (int k = 1; k <= s.players; ++k) {
    const int i = (from + k) % s.players;
    if (s.in(i)) return static_cast<std::uint8_t>(i);
  }
  return kNobody;
}

void put_in(DealState& s, int i, Chips amount) noexcept {
  PlayerState& p = s.seat[i];
  if (s.stacks) p.stack -= amount;
  p.put_in += amount;
  s.pots[s.npots - 1].amount += amount;
}

bool holds(const PlayerState& p, int cards, Card c) noexcept {
  return std::find(p.cards.begin(), p.cards.begin() + cards, c) != p.cards.begin() + cards;
}


Chips DealState::pot_total() const noexcept {
  Chips total = 0;
  for (int k = 0; k < npots; ++k) total += pots[k].amount;
  return total;
}

Chips least_stake(const DealState& s, int i) noexcept {
  return s.seat[i].status == Status::Blind ? half_up(s.stake) : s.stake;
}

// The most a stake of seat i may be before its stack (kNoLimit: no limit).
// Limits never forbid the least stake.
Chips limit_most(const Table& t, const DealState& s, int i) noexcept {
  const TableConfig& c = t.config;
  const bool blind = s.seat[i].status == Status::Blind;
  const Chips least = least_stake(s, i);
  Chips most = kNoLimit;
  auto bound = [&](Chips m) { most = most == kNoLimit ? m : std::min(most, m); };
  if (c.max_stake != kNoLimit) bound(blind ? half_up(c.max_stake) : c.max_stake);
  if (c.raise_limit != kNoLimit) bound(blind ? (s.stake + c.raise_limit) / 2 : s.stake + c.raise_limit);
  if (c.raise_double) bound(blind ? s.stake : 2 * s.stake);
  if (c.pot_limit) bound(s.pots[s.npots - 1].amount);
  if (most != kNoLimit && most < least) most = least;
  return most;
}

int legal_actions(const Table& t, const DealState& s, Legal* out) noexcept {
  int n = 0;
  if (s.phase == Phase::Over) return 0;
  if (t.config.structure == Structure::Draw) return draw_legal_actions(t, s, out);
  if (s.phase == Phase::Sideshow) {
    out[n++] = Legal{Kind::Accept};
    out[n++] = Legal{Kind::Decline};
    return n;
  }
  const int i = s.to_act;
  const PlayerState& p = s.seat[i];
  if (p.must_discard) {
    out[n++] = Legal{Kind::Discard, t.config.discards, t.config.discards};
    if (p.deciding) out[n++] = Legal{Kind::Fold};
    return n;
  }
  const bool blind = p.status == Status::Blind;
  if (must_fold(t, s, i) || must_beat_face_up(t, s, i)) {
    out[n++] = Legal{Kind::Fold};
    return n;
  }
  if (blind) out[n++] = Legal{Kind::Look};
  if (blind_turns_over(t, p)) {
    out[n++] = Legal{Kind::Fold};
    return n;
  }
  const Chips least = least_stake(s, i);
  Chips most = limit_most(t, s, i);
  const bool can_stake = !s.stacks || p.stack >= least;
  if (s.stacks && can_stake) most = most == kNoLimit ? p.stack : std::min(most, p.stack);
  if (can_stake) out[n++] = Legal{Kind::Stake, least, most};
  const int in = s.players_in();
  if (in == 2 && s.stakes > 0) {
    const int other = other_in(s, i);
    const Chips price = see_price(t, s, i);
    if (!(p.status == Status::Open && s.seat[other].status == Status::Blind) && p.hands == 1 &&
        s.seat[other].hands == 1 && (!s.stacks || p.stack >= price))
      out[n++] = Legal{Kind::See, price, price};
  }
  out[n++] = Legal{Kind::Fold};
  if (t.config.cover && s.stacks && p.stack < least) out[n++] = Legal{Kind::Cover, p.stack, p.stack};
  if (t.config.sideshow && can_stake && !blind && in >= 3) {
    const std::uint8_t target = sideshow_target(s, i);
    if (target != kNobody && s.seat[target].status == Status::Open) out[n++] = Legal{Kind::Sideshow, least, most};
  }
  if (t.config.agreed_showdown && in >= 3) out[n++] = Legal{Kind::AgreeShowdown};
  return n;
}

namespace {

// The checks of a stake's amount (a stake's or a sideshow's).
Code check_stake(const Table& t, const DealState& s, int i, Chips amount) noexcept {
  const PlayerState& p = s.seat[i];
  const Chips least = least_stake(s, i);
  if (amount < least) return Code::StakeBelowLeast;
  if (s.stacks && amount > p.stack) return Code::CannotAfford;
  const Chips most = limit_most(t, s, i);
  if (most != kNoLimit && amount > most) return Code::StakeAboveMost;
  if (s.pot_total() + amount > kMaxChips) return Code::StakeAboveMost;  // a deal holds at most kMaxChips
  return Code::Ok;
}

Code check(const Table& t, const DealState& s, const Move& m) {
  const TableConfig& c = t.config;
  if (s.phase == Phase::Over) return Code::DealOver;
  if (m.player >= s.players) return Code::UnknownPlayer;
  if (m.player != s.to_act) return Code::NotYourTurn;
  if (static_cast<int>(m.kind) >= static_cast<int>(Kind::Check)) return Code::UnknownAction;  // draw Brag's
  const bool answer = m.kind == Kind::Accept || m.kind == Kind::Decline;
  if (s.phase == Phase::Sideshow && !answer) return Code::AnswerSideshow;
  if (s.phase != Phase::Sideshow && answer) return Code::NoSideshow;
  const int i = m.player;
  const PlayerState& p = s.seat[i];
  if (p.must_discard && m.kind != Kind::Discard && !(p.deciding && m.kind == Kind::Fold)) return Code::MustDiscard;
  if (!p.must_discard && m.kind == Kind::Discard) return Code::NoDiscard;
  if (blind_turns_over(t, p) && m.kind != Kind::Look && m.kind != Kind::Fold) return Code::BlindTurnsOver;
  const bool takes_amount = m.kind == Kind::Stake || m.kind == Kind::Sideshow;
  const bool may_take_amount = takes_amount || m.kind == Kind::See || m.kind == Kind::Cover;
  if ((takes_amount && m.amount == kNoAmount) || (!may_take_amount && m.amount != kNoAmount))
    return Code::BadAmount;
  if (m.kind != Kind::Discard && m.ndiscards != 0) return Code::BadAmount;
  if (m.kind != Kind::Look && m.kind != Kind::Discard && m.kind != Kind::Fold && !answer &&
      must_beat_face_up(t, s, i))
    return Code::MustBeatFaceUp;
  const int in = s.players_in();
  switch (m.kind) {
    case Kind::Look:
      if (must_fold(t, s, i)) return Code::CannotAfford;
      return p.status == Status::Blind ? Code::Ok : Code::AlreadyOpen;
    case Kind::Discard: {
      if (m.ndiscards != c.discards) return Code::DiscardCount;
      if (m.ndiscards == 2 && m.discards[0] == m.discards[1]) return Code::DiscardNotHeld;
      for (int k = 0; k < m.ndiscards; ++k) {
        const Card d = m.discards[k];
        if (p.known ? !holds(p, c.cards, d) : d >= t.evaluator->table().pack_size()) return Code::DiscardNotHeld;
      }
      return Code::Ok;
    }
    case Kind::Sideshow: {
      if (!c.sideshow) return Code::SideshowNotAllowed;
      if (p.status == Status::Blind) return Code::SideshowBlind;
      if (in < 3) return Code::SideshowNeedsThree;
      const std::uint8_t target = sideshow_target(s, i);
      if (target == kNobody || s.seat[target].status != Status::Open) return Code::SideshowNoOne;
      return check_stake(t, s, i, m.amount);
    }
    case Kind::Stake:
      return check_stake(t, s, i, m.amount);
    case Kind::See: {
      if (in != 2) return Code::SeeNeedsTwo;
      if (s.stakes == 0) return Code::SeeBeforeStake;
      if (p.status == Status::Open && s.seat[other_in(s, i)].status == Status::Blind) return Code::SeeBlindMan;
      if (p.hands == 2 || s.seat[other_in(s, i)].hands == 2) return Code::SeeTwoHands;
      const Chips price = see_price(t, s, i);
      if (m.amount != kNoAmount && m.amount != price) return Code::SeePrice;
      if (s.pot_total() + price > kMaxChips) return Code::CannotAfford;
      if (s.stacks && p.stack < price) return Code::CannotAfford;
      return Code::Ok;
    }
    case Kind::Cover:
      if (!c.cover || !s.stacks) return Code::CoverNotAllowed;
      if (p.stack >= least_stake(s, i)) return Code::CoverCanPay;
      if (m.amount != kNoAmount && m.amount != p.stack) return Code::BadAmount;
      return Code::Ok;
    case Kind::AgreeShowdown:
      if (must_fold(t, s, i)) return Code::CannotAfford;
      if (!c.agreed_showdown) return Code::AgreeNotAllowed;
      return in < 3 ? Code::AgreeNeedsThree : Code::Ok;
    case Kind::Fold:
    case Kind::Accept:
    case Kind::Decline:
      return Code::Ok;
    default:
      return Code::UnknownAction;
  }
}

// After a turn has ended: the betting ends if one player is left in, the
// turn put chips in (`chips_in`: a stake or a cover) and the pots reached
// the cap, or every player in has agreed to show; otherwise the turn passes
// clockwise from `from`.
void next_turn(const Table& t, DealState& s, int from, Events* events, bool chips_in = false) {
  const int in = s.players_in();
  if (in <= 1) {
    settle(t, s, Ending::FoldedOut, events);
    return;
  }
  if (chips_in && t.config.pot_cap != kNoLimit && s.pot_total() >= t.config.pot_cap) {
    settle(t, s, Ending::PotCap, events);
    return;
  }
  bool all_agreed = t.config.agreed_showdown;
  for (int i = 0; i < s.players && all_agreed; ++i) all_agreed = !s.in(i) || s.seat[i].agreed;
  if (all_agreed) {
    settle(t, s, Ending::Showdown, events);
    return;
  }
  s.to_act = next_in(s, from);
}

void stake(DealState& s, int i, Chips amount, Events* events) noexcept {
  PlayerState& p = s.seat[i];
  if (p.status == Status::Blind) {
    if (amount != half_up(s.stake)) s.stake = 2 * amount;
    ++p.blind_stakes;
  } else {
    s.stake = amount;
  }
  put_in(s, i, amount);
  p.staked = true;
  ++s.stakes;
  for (int j = 0; j < s.players; ++j) s.seat[j].agreed = false;
  emit(events, EventKind::Stake, i, amount, s.npots - 1);
}

}  // namespace

Code apply(const Table& t, DealState& s, const Move& m, Events* events) {
  if (t.config.structure == Structure::Draw) return draw_apply(t, s, m, events);
  const Code code = check(t, s, m);
  if (code != Code::Ok) return code;
  const int i = m.player;
  PlayerState& p = s.seat[i];
  ++s.actions;
  if (p.deciding) {
    p.deciding = false;
    p.hands = 1;
    const bool face_up = s.face_up == i;
    if (m.kind == Kind::Fold) {
      // The looked hand folded: the other stays, still unseen, or, dealt
      // face up, played open (and, of four or five cards, discarded from).
      emit(events, EventKind::FoldHand, i, face_up ? 1 : 0);
      p.cards = p.second;
      p.known = p.second_known;
      p.status = face_up ? Status::Open : Status::Blind;
      p.must_discard = face_up && t.config.discards > 0;
      p.seen_by = face_up ? s.all_seats() : 0;
      return Code::Ok;
    }
    // The looked hand kept: the other folded (unseen, unless dealt face up).
    emit(events, EventKind::FoldHand, i, face_up ? 0 : 1);
    if (face_up) s.face_up_held = false;
  }
  switch (m.kind) {
    case Kind::Look:
      p.deciding = p.hands == 2;
      p.status = Status::Open;
      p.must_discard = t.config.discards > 0;
      if (p.known) p.seen_by |= 1u << i;
      emit(events, EventKind::Look, i);
      return Code::Ok;
    case Kind::Discard:
      p.must_discard = false;
      p.ndiscards = m.ndiscards;
      std::copy_n(m.discards.begin(), p.discards.size(), p.discards.begin());
      emit(events, EventKind::Discard, i);
      return Code::Ok;
    case Kind::Stake:
      stake(s, i, m.amount, events);
      next_turn(t, s, i, events, true);
      return Code::Ok;
    case Kind::Sideshow: {
      stake(s, i, m.amount, events);
      if (t.config.pot_cap != kNoLimit && s.pot_total() >= t.config.pot_cap) {
        settle(t, s, Ending::PotCap, events);
        return Code::Ok;
      }
      const std::uint8_t target = sideshow_target(s, i);
      emit(events, EventKind::Sideshow, i, 0, 0, 1u << target);
      s.phase = Phase::Sideshow;
      s.asker = static_cast<std::uint8_t>(i);
      s.to_act = target;
      return Code::Ok;
    }
    case Kind::Accept:
    case Kind::Decline: {
      const int asker = s.asker;
      s.phase = Phase::Betting;
      s.asker = kNobody;
      if (m.kind == Kind::Decline) {
        emit(events, EventKind::Decline, i);
      } else {
        emit(events, EventKind::Accept, i);
        if (!side_compare(t, s, asker, i, events)) return Code::Ok;  // unknown cards: the deal ends
      }
      next_turn(t, s, asker, events);
      return Code::Ok;
    }
    case Kind::See: {
      const Chips price = see_price(t, s, i);
      put_in(s, i, price);
      emit(events, EventKind::See, i, price, s.npots - 1);
      s.seer = static_cast<std::uint8_t>(i);
      settle(t, s, Ending::See, events);
      return Code::Ok;
    }
    case Kind::Fold:
      p.status = Status::Folded;
      --s.in_count;
      p.agreed = false;
      emit(events, EventKind::Fold, i);
      next_turn(t, s, i, events);
      return Code::Ok;
    case Kind::Cover: {
      const Chips all = p.stack;
      put_in(s, i, all);
      p.status = Status::Covered;
      --s.in_count;
      p.agreed = false;
      emit(events, EventKind::Cover, i, all, s.npots - 1);
      s.pots[s.npots - 1].coverer = static_cast<std::uint8_t>(i);
      s.pots[s.npots] = Pot{};
      ++s.npots;
      next_turn(t, s, i, events, true);
      return Code::Ok;
    }
    case Kind::AgreeShowdown:
      p.agreed = true;
      emit(events, EventKind::AgreeShowdown, i);
      next_turn(t, s, i, events);
      return Code::Ok;
    default:
      return Code::UnknownAction;
  }
}

void check_players(const Table& t, int n) {
  const int cards = t.config.structure == Structure::Draw ? 2 * t.config.cards : t.config.cards;
  const int pack = t.evaluator->table().pack_size();
  const int most = std::min(kMaxSeats, pack / cards);
  if (n < 2 || n > most)
    throw InvalidHand("a deal of " +
                          (t.config.structure == Structure::Draw ? std::string("draw Brag (three cards, up to three drawn)")
                                                                 : std::to_string(cards) + "-card hands") +
                          " from a pack of " + std::to_string(pack) + " cards takes 2 to " + std::to_string(most) +
                          " players, not " + std::to_string(n),
                      -1, "players");
}

void start(const Table& t, const Setup& setup, DealState& s, Events* events) {
  const TableConfig& c = t.config;
  const int n = setup.players;
  const int pack = t.evaluator->table().pack_size();
  check_players(t, n);
  if (setup.dealer < 0 || setup.dealer >= n)
    throw InvalidHand("dealer must be a seat from 0 to " + std::to_string(n - 1) + ", not " +
                          std::to_string(setup.dealer),
                      -1, "dealer");
  s = DealState{};
  s.players = static_cast<std::uint8_t>(n);
  s.dealer = static_cast<std::uint8_t>(setup.dealer);
  s.stacks = setup.stacks != nullptr;
  s.stake = c.min_stake;
  if (setup.carried < 0 || setup.carried > kMaxChips)
    throw InvalidHand("a pot carried from the deal before must be from 0 to 2**53 chips", -1, "pot");
  s.pots[0].amount = setup.carried;
  if (setup.retained >= n) throw InvalidHand("the retained hand's seat is not at the table", -1, "retained");
  std::uint64_t used = 0, used_jokers = 0;
  auto take = [&](Card card, int i, int k) {
    if (card >= pack)
      throw InvalidHand("seat " + std::to_string(i) + ": card " + std::to_string(k + 1) + " (" +
                            std::to_string(card) + ") is not in the pack of " + std::to_string(pack) + " cards",
                        i, "cards");
    std::uint64_t& mask = card >= 64 ? used_jokers : used;
    const std::uint64_t bit = std::uint64_t{1} << (card % 64);
    if (mask & bit)
      throw InvalidHand("card " + format_card(card) + " is dealt twice (seat " + std::to_string(i) + ")", i, "cards");
    mask |= bit;
  };
  if (setup.retained >= 0) {
    PlayerState& p = s.seat[setup.retained];
    p.hands = 2;
    p.second_known = setup.second != nullptr && setup.second[0] != kUnknownCard;
    for (int k = 0; p.second_known && k < c.cards; ++k) {
      take(setup.second[k], setup.retained, k);
      p.second[k] = setup.second[k];
    }
  }
  const bool face_up = setup.retained >= 0 && c.retain_blind == Retain::FaceUp;
  for (int i = 0; i < n; ++i) {
    PlayerState& p = s.seat[i];
    if (s.stacks) {
      p.stack = setup.stacks[i];
      if (p.stack < 0 || p.stack > kMaxChips)
        throw InvalidHand("stack of seat " + std::to_string(i) + " must be from 0 to 2**53, not " +
                              std::to_string(p.stack),
                          i, "stacks");
    }
    const Card* hand = setup.cards + static_cast<std::size_t>(i) * c.cards;
    p.known = hand[0] != kUnknownCard;
    if (!p.known) continue;
    for (int k = 0; k < c.cards; ++k) {
      take(hand[k], i, k);
      p.cards[k] = hand[k];
    }
  }
  if (face_up) {
    // The retained hand is the one a look shows; the one dealt now lies face up.
    PlayerState& p = s.seat[setup.retained];
    std::swap(p.cards, p.second);
    std::swap(p.known, p.second_known);
    s.face_up = static_cast<std::uint8_t>(setup.retained);
    s.face_up_held = true;
  }
  int dealt = 0;
  for (int k = 1; k <= n; ++k) {
    const int i = (setup.dealer + k) % n;
    PlayerState& p = s.seat[i];
    // At draw Brag a player must also be able to pay the big blind.
    const Chips entry = c.ante + (c.structure == Structure::Draw ? c.big_blind : 0);
    if ((setup.sitting_out >> i & 1u) || (s.stacks && p.stack < entry)) {
      p.status = Status::Out;
      emit(events, EventKind::SitOut, i);
      continue;
    }
    ++dealt;
  }
  s.in_count = static_cast<std::uint8_t>(dealt);
  if (setup.retained >= 0 && s.seat[setup.retained].status == Status::Out)
    throw InvalidHand("the player keeping a blind hand must be dealt in", setup.retained, "retained");
  if (dealt < 2)
    throw InvalidHand("a deal needs two players dealt in who can pay the ante of " + std::to_string(c.ante) + ", not " +
                          std::to_string(dealt),
                      -1, "stacks");
  for (int k = 1; k <= n; ++k) {
    const int i = (setup.dealer + k) % n;
    if (s.seat[i].status == Status::Out) continue;
    put_in(s, i, c.ante);
    emit(events, EventKind::Ante, i, c.ante, 0);
  }
  for (int k = 1; k <= n; ++k) {
    const int i = (setup.dealer + k) % n;
    if (s.seat[i].status != Status::Out) emit(events, EventKind::Deal, i, c.cards);
  }
  if (face_up) emit(events, EventKind::Show, setup.retained, 1, 0, s.all_seats());
  s.to_act = next_in(s, setup.dealer);
  if (c.structure == Structure::Draw) {
    if (setup.stub_size < 0 || setup.stub_size > kMaxPack)
      throw InvalidHand("the cards left for the draw are more than a pack", -1, "stub");
    for (int k = 0; k < setup.stub_size; ++k) {
      const Card card = setup.stub[k];
      std::uint64_t& mask = card >= 64 ? used_jokers : used;
      const std::uint64_t bit = std::uint64_t{1} << (card % 64);
      if (card >= pack || (mask & bit))
        throw InvalidHand("card " + std::to_string(k + 1) + " left for the draw " +
                              (card >= pack ? std::string("is not in the pack")
                                            : "(" + format_card(card) + ") is dealt already or given twice"),
                          -1, "stub");
      mask |= bit;
      s.stub[k] = card;
    }
    s.stub_size = static_cast<std::uint8_t>(setup.stub_size);
    draw_start(t, s, events);
  }
}

std::string explain(const Table& t, const DealState& s, const Move& m, Code code,
                    const std::vector<std::string>& names) {
  auto name = [&](int i) { return i < static_cast<int>(names.size()) ? quoted(names[i]) : std::to_string(i); };
  const std::string who = m.player < s.players ? name(m.player) : std::string("an unknown player");
  std::string what = static_cast<int>(m.kind) < kKinds ? kind_name(m.kind) : "act";
  if (m.amount != kNoAmount) what += " " + std::to_string(m.amount);
  std::string message = who + " cannot " + what + ": ";
  if (t.config.structure == Structure::Draw && code != Code::NotYourTurn) return message + draw_explain(t, s, m, code);
  const int i = m.player;
  switch (code) {
    case Code::NotYourTurn:
      return message + "it is " + (s.to_act == kNobody ? std::string("nobody") : name(s.to_act)) + "'s turn";
    case Code::StakeBelowLeast:
      return message + "stake " + std::to_string(m.amount) + " is below the least stake " +
             std::to_string(least_stake(s, i)) + " for " +
             (s.seat[i].status == Status::Blind ? "a blind" : "an open") + " player";
    case Code::StakeAboveMost:
      if (limit_most(t, s, i) == kNoLimit || m.amount <= limit_most(t, s, i))
        return message + "a deal holds at most 2**53 chips in all";
      return message + "stake " + std::to_string(m.amount) + " is above the most stake " +
             std::to_string(limit_most(t, s, i)) + " at this table";
    case Code::CannotAfford:
      if (!s.stacks) return message + "a deal holds at most 2**53 chips in all";
      if (must_fold(t, s, i))
        return message + "the stack of " + std::to_string(s.seat[i].stack) +
               " chips cannot pay the least stake, and without covering the player may only fold";
      return message + "the stack holds " + std::to_string(s.seat[i].stack) + " chips";
    case Code::SeePrice:
      return message + "the see costs " + std::to_string(see_price(t, s, i));
    case Code::SeeBlindMan:
      return message + "an open player cannot see a blind player (" + name(other_in(s, i)) +
             " is blind): stake, cover or fold";
    case Code::MustBeatFaceUp: {
      const PlayerState hand = face_up_hand(s);
      std::array<Card, 5> shown{};
      std::size_t n = 0;
      for (int k = 0; k < t.config.cards; ++k)  // its discards, if any, stay face down
        if (std::find(hand.discards.begin(), hand.discards.begin() + hand.ndiscards, hand.cards[k]) ==
            hand.discards.begin() + hand.ndiscards)
          shown[n++] = hand.cards[k];
      return message + "every other player who has looked must beat the hand dealt face up to " + name(s.face_up) +
             " (" + format_cards(shown.data(), n) + ") or fold, and this hand does not";
    }
    case Code::DiscardCount:
      return message + "discard exactly " + std::to_string(t.config.discards) + " card" +
             (t.config.discards == 1 ? "" : "s");
    default:
      return message + code_rule(code);
  }
}

}  // namespace prial::table

namespace prial::table {

std::shared_ptr<const Table> make_table(const TableConfig& config, const RulesConfig& rules) {
  auto at_least = [](const char* option, Chips value, Chips least) {
    if (value < least || value > kMaxChips)
      throw InvalidHand(std::string(option) + " must be from " + std::to_string(least) + " to 2**53, not " +
                            std::to_string(value),
                        -1, option);
  };
  if (config.cards < 3 || config.cards > 5 || config.discards != config.cards - 3)
    throw InvalidHand("a table deals 3, 4 or 5 cards, discarding all but three on looking", -1, "cards");
  at_least("ante", config.ante, 0);
  at_least("min_stake", config.min_stake, 1);
  if (config.max_stake != kNoLimit) at_least("max_stake", config.max_stake, config.min_stake);
  if (config.raise_limit != kNoLimit) at_least("raise_limit", config.raise_limit, 1);
  if (config.pot_cap != kNoLimit) at_least("pot_cap", config.pot_cap, 1);
  if (config.blind_turns != -1) at_least("blind_turns", config.blind_turns, 0);
  at_least("see_cost", config.see_cost, 1);
  if (config.structure == Structure::Draw) {
    if (config.cards != 3) throw InvalidHand("draw Brag deals three cards", -1, "cards");
    at_least("small_blind", config.small_blind, 0);
    at_least("big_blind", config.big_blind, config.small_blind);
    at_least("first_bet", config.first_bet, 1);
    if (config.first_bet > kMaxChips / 4) throw InvalidHand("first_bet must be at most 2**51", -1, "first_bet");
    if (config.blind_rounds != 1 && config.blind_rounds != 2)
      throw InvalidHand("blind_rounds must be 1 or 2", -1, "blind_rounds");
  }
  if (config.see_cost > 1000) throw InvalidHand("see_cost must be from 1 to 1000", -1, "see_cost");
  auto table = std::make_shared<Table>();
  table->config = config;
  table->evaluator = std::make_shared<const Evaluator>(rules);
  table->best_of = best_of_table(rules);
  return table;
}

}  // namespace prial::table
