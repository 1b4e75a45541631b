// The betting table (docs/rules.md, "10. The betting"): one deal of Brag,
// four- or five-card Brag, Teen Patti or draw Brag as a compact state and
// one transition function over it, from the ante to the pot.  Draw Brag's
// poker-style betting is a second structure of the same machine, its
// rules in table_draw.cpp.
//
// A DealState is plain data (no pointers, no heap), so it is copied to
// branch, stored in arrays for batches, and compared byte for byte.  Every
// rule is in apply() and legal(); the end of the betting (who is shown
// what, who takes which pot) in settle().  Seats are indices 0..n-1;
// player names live with the caller.
//
// C++ use:
//
//   auto table = prial::table::make_table(config, rules);
//   DealState s;
//   prial::table::start(*table, setup, s, &events);     // throws InvalidHand on a bad setup
//   Legal legal[kMaxLegal]; int n = legal_actions(*table, s, legal);
//   Code c = apply(*table, s, Move{Kind::Stake, s.to_act, 4}, &events);  // s unchanged unless Ok
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "prial/bestof.hpp"
#include "prial/evaluator.hpp"

namespace prial::table {

using Chips = std::int64_t;
inline constexpr Chips kNoLimit = -1;
// Chips a deal may hold in all: every sum of stakes stays far from overflow.
inline constexpr Chips kMaxChips = Chips{1} << 53;
inline constexpr int kMaxSeats = 17;
inline constexpr int kMaxPots = kMaxSeats + 1;
inline constexpr std::uint8_t kNobody = 0xFF;
inline constexpr Card kUnknownCard = 0xFF;

enum class Kind : std::uint8_t {
  Look, Discard, Stake, See, Fold, Cover, Sideshow, Accept, Decline, AgreeShowdown,
  Check, Call, Raise, Draw,  // draw Brag's
};
inline constexpr int kKinds = 14;
const char* kind_name(Kind kind) noexcept;

// Why an action is refused, checked in this order (the first that applies).
enum class Code : std::uint8_t {
  Ok,
  DealOver,
  UnknownPlayer,
  NotYourTurn,
  UnknownAction,
  AnswerSideshow,
  NoSideshow,
  MustDiscard,
  NoDiscard,
  BlindTurnsOver,
  BadAmount,
  MustBeatFaceUp,
  AlreadyOpen,
  DiscardCount,
  DiscardNotHeld,
  SideshowNotAllowed,
  SideshowBlind,
  SideshowNeedsThree,
  SideshowNoOne,
  StakeBelowLeast,
  CannotAfford,
  StakeAboveMost,
  SeeNeedsTwo,
  SeeBeforeStake,
  SeeBlindMan,
  SeeTwoHands,
  SeePrice,
  CoverNotAllowed,
  CoverCanPay,
  AgreeNotAllowed,
  AgreeNeedsThree,
  // Draw Brag's.  At a draw Brag table the order is DealOver,
  // UnknownPlayer, NotYourTurn, UnknownAction, BadAmount, MustDraw, then
  // the action's own (table_draw.cpp).
  CheckFacingBet,
  NothingToCall,
  RaiseCap,
  BlindNoRaise,
  MustDraw,
  NoDraw,
  DrawCount,
  DrawNotHeld,
  DrawBlind,
  WrongPrice,
};
inline constexpr int kCodes = 41;
// The stable name of a code ("see_blind_man"), as Python's
// IllegalActionError.code and gRPC's ErrorInfo.reason give it.
const char* code_name(Code code) noexcept;
// The rule in words ("an open player cannot see a blind player").
const char* code_rule(Code code) noexcept;

// What happens when everyone folds to a blind player: the pot is won
// (No), or it stays and that player may keep the hand beside one dealt
// blind (Blind) or face up (FaceUp), which every other player must beat.
enum class Retain : std::uint8_t { No, Blind, FaceUp };

// The betting structure: Brag's stakes and sees, or draw Brag's blinds,
// fixed-limit rounds and a draw between them.
enum class Structure : std::uint8_t { Brag, Draw };

// A resolved TableRules: every default already applied.
struct TableConfig {
  std::uint8_t cards = 3;     // 3, 4 or 5
  std::uint8_t discards = 0;  // cards - 3
  Chips ante = 1;
  Chips min_stake = 1;
  Chips max_stake = kNoLimit;
  Chips raise_limit = kNoLimit;  // S may grow by at most this much in one stake
  bool raise_double = false;     // S after a stake is at most twice S before
  bool pot_limit = false;
  Chips pot_cap = kNoLimit;
  int blind_turns = -1;          // -1: no cap
  int see_cost = 2;
  bool sideshow = false;
  bool agreed_showdown = true;
  bool cover = true;
  Retain retain_blind = Retain::No;  // everyone folding to a blind player leaves the pot for the next deal
  // Draw Brag only (Structure::Draw); the Brag options above other than
  // cards and ante are then unused.
  Structure structure = Structure::Brag;
  Chips small_blind = 1;
  Chips big_blind = 2;
  Chips first_bet = 4;                   // the first round's bets and raises; the second's are twice it
  bool blind_raise = true;               // a blind player may raise
  int blind_rounds = 2;                  // the rounds a blind player calls for half price in (1 or 2)
  bool second_from_small_blind = false;  // the second round opens at the small blind, not after the big
};

// A table: its config and the ruleset's tables hands are valued by.
struct Table {
  TableConfig config;
  std::shared_ptr<const Evaluator> evaluator;
  std::shared_ptr<const BestOfTable> best_of;
};
// Validates the config (throws InvalidHand naming the option).
std::shared_ptr<const Table> make_table(const TableConfig& config, const RulesConfig& rules);

enum class Status : std::uint8_t { Blind, Open, Folded, Covered, Out };
enum class Phase : std::uint8_t { Betting, Sideshow, Over };
// How the betting ended.
// How the betting ended (Unknown: at a sideshow between unknown hands,
// which cannot be decided).
enum class Ending : std::uint8_t { None, FoldedOut, See, Showdown, PotCap, Unknown };

struct PlayerState {
  Chips stack = 0;   // chips behind (0 and unused without stacks)
  Chips put_in = 0;  // chips put into the pots this deal, ante included
  Status status = Status::Blind;
  bool known = false;         // the cards are known
  bool must_discard = false;  // has just looked (four and five cards)
  bool staked = false;        // has staked in this deal
  bool agreed = false;        // in the current chain of agreements to show
  std::uint8_t ndiscards = 0;
  std::uint16_t blind_stakes = 0;
  std::uint32_t seen_by = 0;  // seats this hand has been shown to (bit per seat)
  std::array<Card, 5> cards{};
  std::array<Card, 2> discards{};
  // A retained blind hand: `second` is the hand kept from the deal before,
  // `cards` the one dealt now (the one a look shows).  After that look the
  // player is `deciding`: a fold folds the looked hand and leaves `second`
  // blind; anything else keeps it and folds `second` unseen.
  // With Retain::FaceUp the two swap places: `cards` is the retained hand
  // (the one a look shows) and `second` the one dealt face up, which a fold
  // after that look leaves the player playing open.
  std::uint8_t hands = 1;
  bool deciding = false;
  bool second_known = false;
  std::array<Card, 5> second{};
  // Draw Brag: the bet this player has matched in the current round (open
  // terms: a blind call at half price matches the whole bet), whether they
  // have acted since the last raise, and whether they have drawn.
  Chips level = 0;
  bool acted = false;
  bool drawn = false;
};

struct Pot {
  Chips amount = 0;
  std::uint8_t coverer = kNobody;  // the player who covered it; none for the live pot
};

struct DealState {
  std::uint8_t players = 0;
  std::uint8_t dealer = 0;
  std::uint8_t to_act = kNobody;
  Phase phase = Phase::Betting;
  Ending ending = Ending::None;
  bool stacks = false;        // players have stacks
  bool known = true;          // the result is known (false: it depends on unknown cards)
  std::uint8_t asker = kNobody;    // a sideshow's asker while it is answered
  std::uint8_t seer = kNobody;     // the see that ended the betting
  bool pot_stays = false;          // everyone folded to a blind player: the pot goes to the next deal
  std::uint8_t retainer = kNobody; // that player, who may keep the hand
  std::uint8_t face_up = kNobody;  // the seat dealt a hand face up (Retain::FaceUp), its `second`
  bool face_up_held = false;       // that hand is still held (not folded for the retained one)
  std::uint8_t npots = 1;
  std::uint8_t in_count = 0;  // players in: neither folded nor covered (nor out)
  std::uint32_t stakes = 0;   // stakes made in this deal
  std::uint32_t actions = 0;  // actions applied
  Chips stake = 0;            // the current stake S, open terms
  std::array<Pot, kMaxPots> pots{};
  std::array<std::uint32_t, kMaxPots> pot_winners{};  // once over: seats (bits) taking each pot
  std::array<Chips, kMaxSeats> payouts{};              // once over: chips each seat receives
  std::array<PlayerState, kMaxSeats> seat{};
  // Draw Brag: the round (1 first betting, 2 the draw, 3 second betting;
  // 0 at other tables), the bet to match in it, its raises, the big
  // blind's seat, and the cards left for the draw, top first (stub_size 0:
  // unknown, and a hand that draws becomes unknown).
  std::uint8_t round = 0;
  std::uint8_t raises = 0;
  std::uint8_t big_blind_seat = kNobody;
  std::uint8_t stub_size = 0;
  std::uint8_t stub_next = 0;
  Chips bet = 0;
  std::array<Card, kMaxPack> stub{};

  std::uint32_t all_seats() const noexcept { return (std::uint32_t{1} << players) - 1; }
  bool in(int i) const noexcept { return seat[i].status == Status::Blind || seat[i].status == Status::Open; }
  int players_in() const noexcept { return in_count; }
  Chips pot_total() const noexcept;
};

// One action as submitted.  `kind` may be out of range (an unknown
// action), `player` kNobody (an unknown player), `amount` kNoAmount when
// none is given; any other value, negative or huge, is judged by the rules
// (a stake of -1 is below the least stake).  Callers clamp wider integers
// to kAmountLimit either way, which no rule allows.
inline constexpr Chips kNoAmount = std::numeric_limits<Chips>::min();
inline constexpr Chips kAmountLimit = Chips{1} << 62;
struct Move {
  Kind kind = Kind::Fold;
  std::uint8_t player = kNobody;
  Chips amount = kNoAmount;
  std::uint8_t ndiscards = 0;
  std::array<Card, 3> discards{};  // two at most but for a draw
};

// An action the player to act may take: a stake's least and most (most
// kNoLimit: unbounded), a see's, cover's, call's or raise's price in
// `least`, a draw's fewest and most cards.
struct Legal {
  Kind kind;
  Chips least = 0;
  Chips most = 0;
};
inline constexpr int kMaxLegal = 8;

enum class EventKind : std::uint8_t {
  Ante, Deal, Look, Discard, Stake, See, Fold, Cover, Sideshow, Accept, Decline, AgreeShowdown,
  SitOut,  // could not pay the ante, or sat out
  FoldHand,  // one of two hands folded (`amount` 1: the retained one, else the one dealt in this deal)
  Stays,   // the pot stays for the next deal
  Show,    // `player`'s hand shown to the seats of `to` (`amount` 1: the hand dealt face up)
  Win,     // `player` takes `amount` of pot `pot`
  Blind,   // draw Brag: `player` posts a blind of `amount`
  Check, Call, Raise,
  Draw,    // `player` draws `amount` cards
};
const char* event_name(EventKind kind) noexcept;

struct Event {
  EventKind kind;
  std::uint8_t player = kNobody;
  std::uint8_t pot = 0;
  Chips amount = 0;
  std::uint32_t to = 0;  // Show: the seats it is shown to
};
using Events = std::vector<Event>;

// The deal before its first action: seats in order, each hand `cards`
// cards (kUnknownCard for an unknown hand), stacks or none.
struct Setup {
  int players = 0;
  int dealer = 0;
  const Chips* stacks = nullptr;  // players values, or nullptr
  const Card* cards = nullptr;    // players * config.cards
  Chips carried = 0;              // a pot that stayed from the deal before
  std::uint32_t sitting_out = 0;  // seats (bits) not dealt in
  int retained = -1;              // the seat keeping its blind hand, if any
  const Card* second = nullptr;   // that hand (config.cards cards, or unknown)
  const Card* stub = nullptr;     // draw Brag: the cards left for the draw, top first
  int stub_size = 0;              // (0: unknown)
};

// Throws InvalidHand unless the table seats `players` players (draw Brag:
// as many as the pack deals six cards to, three and three drawn).
void check_players(const Table& table, int players);

// Antes, sits out players short of the ante, and starts the betting.
// Throws InvalidHand naming the problem (too few or many players, a bad
// dealer, a negative stack, a bad or repeated card, fewer than two
// players able to ante).
void start(const Table& table, const Setup& setup, DealState& out, Events* events = nullptr);

// The actions the player to act may take, in Kind order; returns their count.
int legal_actions(const Table& table, const DealState& s, Legal* out) noexcept;
// The least stake of seat i (open S, blind ceil(S/2)).
Chips least_stake(const DealState& s, int i) noexcept;

// Applies `move`; on any code but Ok the state is unchanged.
Code apply(const Table& table, DealState& s, const Move& move, Events* events = nullptr);

// "'C' cannot see: an open player cannot see a blind player" and the like,
// with the figures that decide it.  `names` are the players' names.
std::string explain(const Table& table, const DealState& s, const Move& move, Code code,
                    const std::vector<std::string>& names);

// The seed-to-pack algorithm, version 1 (docs/rules.md): the pack of
// `pack_size` cards shuffled by the seed, top first; only the top `cards`
// places are settled (all of them by default).
inline constexpr int kPackVersion = 1;
void shuffled_pack(std::uint64_t seed, int pack_size, Card* out, int cards = 0x7fff);
// The hands of `players` seats dealt from `pack` one card at a time,
// clockwise from the dealer's left, skipping seats not dealt in
// (`dealt_in` bits).  out: players * cards, kUnknownCard for seats left out.
void deal_hands(const Card* pack, int players, int dealer, int cards, std::uint32_t dealt_in, Card* out);

// The key a seat's hand compares by (bestof.hpp): a blind hand's best
// three of all its cards, an open hand's kept three with its discards.
BestKey hand_key(const Table& table, const PlayerState& p);

}  // namespace prial::table

namespace prial::table {

// Many seeded deals played natively, a policy per seat:
//  - Random: each turn an action uniform among the legal ones; a stake's
//    amount uniform from its least to its most (to four times the least
//    when unbounded); discards uniform (a draw: its count uniform, then
//    the cards).
//  - Threshold(q): looks at its first turn and keeps its best three; then,
//    while its hand's percentile (the share of all three-card hands of the
//    ruleset it beats, by its kept three) is at least q, sees when it may
//    and stakes the least otherwise; below q it folds.  It never agrees to
//    a showdown, asks for a sideshow or declines one; it covers when it
//    must.  At draw Brag: at or above q it stands pat and checks or calls,
//    below q it draws three and checks or folds; it never raises.
// Deal d is dealt from the pack of seed + d (the seed-to-pack algorithm)
// with the dealer at seat d mod players; every player starts each deal
// with `stack` chips (kNoLimit: no stacks).  Out, per deal: each seat's
// net (payout less chips put in) in nets[d * players + seat] and the
// actions played in actions[d].  A deal still going after
// kSelfPlayMaxActions actions stops there (its nets are 0).  Returns the
// actions played in all.
inline constexpr std::uint32_t kSelfPlayMaxActions = 10000;
enum class Policy : std::uint8_t { Random, Threshold };
struct SeatPolicy {
  Policy policy = Policy::Random;
  double threshold = 0.5;
};
std::uint64_t self_play(const Table& table, int players, const SeatPolicy* policies, std::size_t deals,
                        std::uint64_t seed, Chips stack, Chips* nets, std::uint32_t* actions);

}  // namespace prial::table

namespace prial::table {

// Many deals replayed from their actions (arrays, one row per deal; the
// actions of deal d are rows offsets[d] .. offsets[d+1] of the action
// arrays).  Each deal starts as start() would, then takes its actions in
// order until one is refused (its index and code are reported and the
// replay of that deal stops) or they run out.
struct ReplayInput {
  std::size_t deals = 0;
  std::size_t seats = 0;                  // columns of cards and stacks (>= any deal's players)
  const std::uint8_t* players = nullptr;  // (deals)
  const std::uint8_t* dealers = nullptr;  // (deals)
  const Card* cards = nullptr;            // (deals, seats, table cards); kUnknownCard: unknown
  const Chips* stacks = nullptr;          // (deals, seats), or nullptr: no stacks
  const std::int64_t* offsets = nullptr;  // (deals + 1)
  const std::uint8_t* actors = nullptr;   // (actions) seat; kNobody or beyond: unknown player
  const std::uint8_t* kinds = nullptr;    // (actions) Kind; kKinds or beyond: unknown action
  const Chips* amounts = nullptr;         // (actions) -1: none (a replayed amount is never negative)
  const Card* discards = nullptr;         // (actions, discard_width) kUnknownCard: none
  std::size_t discard_width = 2;          // 2, or 3 for draw Brag's draws
  const Card* stub = nullptr;             // draw Brag: (deals, stub_width) the cards left for the draw,
  std::size_t stub_width = 0;             //   top first, ending at the first kUnknownCard; nullptr: none
};

enum class ReplayStatus : std::uint8_t {
  Unfinished,  // the actions ran out before the end of the deal
  Over,        // ended with a known result
  Unknown,     // ended, but its result depends on unknown cards
  Illegal,     // an action was refused: replay stopped there
  BadSetup,    // the deal could not start (a card twice, too few players ...)
};

struct ReplayOutput {
  std::uint8_t* status = nullptr;      // (deals) ReplayStatus
  std::int64_t* first_bad = nullptr;   // (deals) the refused action's index in its deal, else -1
  std::uint8_t* code = nullptr;        // (deals) its Code, else Ok
  std::uint8_t* ending = nullptr;      // (deals) Ending
  Chips* payouts = nullptr;            // (deals, seats) chips received
  Chips* put_in = nullptr;             // (deals, seats) chips put in, antes included
  std::uint32_t* pot_winners = nullptr;  // (deals, kMaxPots) seats (bits) taking each pot, oldest first
  Chips* pots = nullptr;               // (deals, kMaxPots) each pot's chips, oldest first (0 past the last)
};

// Replays every deal (threads <= 0: all cores); returns the actions applied.
std::uint64_t replay(const Table& table, const ReplayInput& in, const ReplayOutput& out, int threads);

}  // namespace prial::table
