// The betting table (table.hpp): a table's rules (_core.Table) and one
// deal as an immutable native state (_core.TableDeal), which prial.Deal
// wraps.  A deal's moves and events are kept in one append-only log that
// every later deal of the same line of play shares, so acting copies the
// state (a few hundred bytes) and never the history.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convert.hpp"
#include "gil.hpp"
#include "prial/table.hpp"
#include "register.hpp"

namespace prial::bindings {
namespace {

using namespace prial::table;

struct TableHandle {
  std::shared_ptr<const Table> table;
};

// Moves and events of one line of play; a deal sees its own prefix.
struct Log {
  std::vector<Move> moves;
  std::vector<Event> events;
};

// The Python types and strings the deal's answers are made of, registered
// once at import (table_register_types).
struct TableTypes {
  py::object action;  // prial.Action
  py::object illegal; // prial.IllegalActionError
  std::array<py::object, kKinds> kinds;
  std::array<py::object, 5> statuses;
};
TableTypes& table_types() {
  static TableTypes* types = new TableTypes();  // never destroyed: Python may be gone at exit
  return *types;
}

constexpr const char* kStatusNames[] = {"blind", "open", "folded", "covered", "out"};
constexpr const char* kEndingNames[] = {"", "folded_out", "see", "showdown", "pot_cap", "unknown"};

py::object chips_or_none(Chips chips) { return chips < 0 ? py::object(py::none()) : py::object(py::int_(chips)); }

class TableDeal {
 public:
  TableDeal(std::shared_ptr<const Table> table, std::shared_ptr<const std::vector<std::string>> names,
            std::shared_ptr<std::vector<py::object>> name_objects)
      : table_(std::move(table)), names_(std::move(names)), name_objects_(std::move(name_objects)),
        log_(std::make_shared<Log>()) {}

  static TableDeal start(const TableHandle& handle, const std::vector<std::string>& names,
                         const std::optional<std::vector<std::optional<std::vector<int>>>>& cards,
                         std::uint64_t seed, int dealer, const std::optional<std::vector<Chips>>& stacks,
                         Chips pot, const std::vector<int>& sitting_out, int retained,
                         const std::optional<std::vector<int>>& second,
                         const std::optional<std::vector<int>>& stub_cards) {
    const Table& table = *handle.table;
    const int n = static_cast<int>(names.size());
    const int width = table.config.cards;
    check_players(table, n);
    if (stacks && static_cast<int>(stacks->size()) != n)
      throw InvalidHand("stacks gives " + std::to_string(stacks->size()) + " stacks for " + std::to_string(n) +
                            " players",
                        -1, "stacks");
    std::vector<Card> hands(static_cast<std::size_t>(n) * width, kUnknownCard);
    std::vector<Card> stub;
    if (cards) {
      if (static_cast<int>(cards->size()) != n)
        throw InvalidHand("cards gives " + std::to_string(cards->size()) + " hands for " + std::to_string(n) +
                              " players",
                          -1, "cards");
      for (int i = 0; i < n; ++i) {
        const auto& hand = (*cards)[i];
        if (!hand) continue;
        if (static_cast<int>(hand->size()) != width)
          throw InvalidHand("seat " + std::to_string(i) + " holds " + std::to_string(hand->size()) +
                                " cards; this table deals " + std::to_string(width),
                            i, "cards");
        for (int k = 0; k < width; ++k) {
          const int card = (*hand)[k];
          hands[i * width + k] = card < 0 || card >= kMaxPack ? Card{kMaxPack} : static_cast<Card>(card);
        }
      }
    } else {
      const bool draw = table.config.structure == Structure::Draw;
      const Chips entry = table.config.ante + (draw ? table.config.big_blind : 0);
      std::uint32_t dealt_in = 0;
      std::size_t dealt = 0;
      for (int i = 0; i < n; ++i)
        if ((!stacks || (*stacks)[i] >= entry) &&
            std::find(sitting_out.begin(), sitting_out.end(), i) == sitting_out.end()) {
          dealt_in |= 1u << i;
          dealt += width;
        }
      std::vector<Card> pack(static_cast<std::size_t>(table.evaluator->table().pack_size()));
      shuffled_pack(seed, static_cast<int>(pack.size()), pack.data());
      if (dealer >= 0 && dealer < n) deal_hands(pack.data(), n, dealer, width, dealt_in, hands.data());
      if (draw) {  // the draw deals on from the rest of the seeded pack
        stub.assign(pack.begin() + static_cast<std::ptrdiff_t>(std::min(dealt, pack.size())), pack.end());
      }
    }
    if (stub_cards) {
      if (table.config.structure != Structure::Draw)
        throw InvalidHand("only draw Brag deals cards for a draw", -1, "stub");
      if (!cards) throw InvalidHand("give the cards left for the draw with the hands, not with a seed", -1, "stub");
      for (int card : *stub_cards) stub.push_back(card < 0 || card >= kMaxPack ? Card{kMaxPack} : static_cast<Card>(card));
    }
    auto name_objects = std::make_shared<std::vector<py::object>>();
    for (const auto& name : names) name_objects->push_back(py::str(name));
    TableDeal deal(handle.table, std::make_shared<const std::vector<std::string>>(names), std::move(name_objects));
    Setup setup{n, dealer, stacks ? stacks->data() : nullptr, hands.data()};
    setup.carried = pot;
    setup.stub = stub.data();
    setup.stub_size = static_cast<int>(std::min<std::size_t>(stub.size(), kMaxPack + 1));
    for (int seat : sitting_out)
      if (seat >= 0 && seat < n) setup.sitting_out |= 1u << seat;
    std::vector<Card> kept(static_cast<std::size_t>(width), kUnknownCard);
    if (retained >= 0) {
      if (second && static_cast<int>(second->size()) != width)
        throw InvalidHand("the retained hand holds " + std::to_string(second->size()) + " cards; this table deals " +
                              std::to_string(width),
                          retained, "retained");
      for (int k = 0; second && k < width; ++k)
        kept[k] = (*second)[k] < 0 || (*second)[k] >= kMaxPack ? Card{kMaxPack} : static_cast<Card>((*second)[k]);
      setup.retained = retained;
      setup.second = kept.data();
    }
    prial::table::start(table, setup, deal.state_, &deal.log_->events);
    deal.events_ = deal.log_->events.size();
    return deal;
  }

  py::tuple legal() const {
    Legal legal[kMaxLegal];
    const int n = legal_actions(*table_, state_, legal);
    py::tuple out(n);
    const TableTypes& types = table_types();
    const py::object player = state_.to_act == kNobody ? py::object(py::none()) : (*name_objects_)[state_.to_act];
    for (int k = 0; k < n; ++k) {
      const Legal& l = legal[k];
      py::object amount = py::none(), least = py::none(), most = py::none();
      if (l.kind == Kind::Stake || l.kind == Kind::Sideshow) {
        least = py::int_(l.least);
        most = chips_or_none(l.most);
      } else if (l.kind == Kind::See || l.kind == Kind::Cover || l.kind == Kind::Call || l.kind == Kind::Raise) {
        amount = py::int_(l.least);
      } else if (l.kind == Kind::Draw) {  // the fewest and most cards drawn
        least = py::int_(l.least);
        most = py::int_(l.most);
      }
      out[k] = make_named_tuple(types.action, {types.kinds[static_cast<int>(l.kind)], player, amount, py::tuple(),
                                               least, most});
    }
    return out;
  }

  TableDeal act(int seat, const std::string& kind_text, const py::object& amount_value,
                const std::vector<int>& discards) const {
    Move move;
    move.player = seat < 0 || seat >= state_.players ? kNobody : static_cast<std::uint8_t>(seat);
    move.kind = static_cast<Kind>(kKinds);
    for (int k = 0; k < kKinds; ++k)
      if (kind_text == kind_name(static_cast<Kind>(k))) move.kind = static_cast<Kind>(k);
    // An int of any size: beyond kAmountLimit either way it is clamped there,
    // where every rule refuses it as it would the exact value.
    if (amount_value.is_none()) {
      move.amount = kNoAmount;
    } else {
      int overflow = 0;
      const long long value = PyLong_AsLongLongAndOverflow(amount_value.ptr(), &overflow);
      if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
      move.amount = overflow > 0 ? kAmountLimit : overflow < 0 ? -kAmountLimit
                                                               : std::clamp<Chips>(value, -kAmountLimit, kAmountLimit);
    }
    if (discards.size() > move.discards.size()) {
      move.ndiscards = static_cast<std::uint8_t>(move.discards.size() + 1);  // never the right count
    } else {
      move.ndiscards = static_cast<std::uint8_t>(discards.size());
      for (std::size_t k = 0; k < discards.size(); ++k)
        move.discards[k] = discards[k] < 0 || discards[k] >= kMaxPack ? Card{kMaxPack} : static_cast<Card>(discards[k]);
    }
    TableDeal next(*this);
    if (log_->moves.size() != moves_ || log_->events.size() != events_) {
      // Acting on an earlier deal of this line: a line of its own from here.
      auto branch = std::make_shared<Log>();
      branch->moves.assign(log_->moves.begin(), log_->moves.begin() + moves_);
      branch->events.assign(log_->events.begin(), log_->events.begin() + events_);
      next.log_ = std::move(branch);
    }
    const Code code = apply(*table_, next.state_, move, &next.log_->events);
    if (code != Code::Ok) {
      if (code != Code::UnknownAction) raise_illegal(explain(*table_, state_, move, code, *names_), code);
      raise_illegal(quoted((*names_)[seat]) + " cannot " + quoted(kind_text) + ": " + code_rule(code), code);
    }
    if (move.kind == Kind::See || move.kind == Kind::Call || move.kind == Kind::Raise)
      move.amount = next.state_.seat[seat].put_in - state_.seat[seat].put_in;
    if (move.kind == Kind::Cover) move.amount = state_.seat[seat].stack;
    if (move.kind == Kind::Draw) move.amount = move.ndiscards;
    next.log_->moves.push_back(move);
    next.moves_ = moves_ + 1;
    next.events_ = next.log_->events.size();
    return next;
  }

  int to_act() const { return state_.to_act == kNobody ? -1 : state_.to_act; }
  bool over() const { return state_.phase == Phase::Over; }
  Chips stake() const { return state_.stake; }
  std::size_t actions() const { return moves_; }

  py::list pots() const {
    py::list out;
    for (int k = 0; k < state_.npots; ++k) {
      const Pot& pot = state_.pots[k];
      out.append(py::make_tuple(pot.amount, pot.coverer == kNobody ? -1 : pot.coverer));
    }
    return out;
  }

  py::list seats() const {
    py::list out;
    for (int i = 0; i < state_.players; ++i) {
      const PlayerState& p = state_.seat[i];
      out.append(py::make_tuple(table_types().statuses[static_cast<int>(p.status)],
                                state_.stacks ? py::object(py::int_(p.stack)) : py::object(py::none()), p.put_in,
                                p.blind_stakes));
    }
    return out;
  }

  py::list history() const {
    py::list out;
    const TableTypes& types = table_types();
    for (std::size_t k = 0; k < moves_; ++k) {
      const Move& m = log_->moves[k];
      py::tuple discards(m.ndiscards);
      for (int d = 0; d < m.ndiscards; ++d) discards[d] = py::int_(m.discards[d]);
      out.append(make_named_tuple(types.action, {types.kinds[static_cast<int>(m.kind)], (*name_objects_)[m.player],
                                                 chips_or_none(m.amount), discards, py::none(), py::none()}));
    }
    return out;
  }

  // (kind, seat or -1, amount, pot, seats shown to as bits)
  py::list events() const {
    py::list out;
    for (std::size_t k = 0; k < events_; ++k) {
      const Event& e = log_->events[k];
      out.append(py::make_tuple(event_name(e.kind), e.player == kNobody ? -1 : e.player, e.amount, e.pot, e.to));
    }
    return out;
  }

  // A seat's cards (None when unknown) and the discards it chose.
  py::object cards(int seat) const {
    const PlayerState& p = state_.seat[checked_seat(seat)];
    if (!p.known) return py::none();
    return card_list(p.cards.data(), table_->config.cards);
  }
  // The cards a seat's hand shows: its kept three once it has discarded
  // (the discards stay face down), else all its cards; None when unknown.
  py::object shown_cards(int seat) const {
    const PlayerState& p = state_.seat[checked_seat(seat)];
    if (!p.known) return py::none();
    std::array<Card, 5> kept{};
    std::size_t n = 0;
    for (int k = 0; k < table_->config.cards; ++k)
      if (std::find(p.discards.begin(), p.discards.begin() + p.ndiscards, p.cards[k]) ==
          p.discards.begin() + p.ndiscards)
        kept[n++] = p.cards[k];
    return card_list(kept.data(), n);
  }
  py::list discards(int seat) const {
    const PlayerState& p = state_.seat[checked_seat(seat)];
    return card_list(p.discards.data(), p.ndiscards);
  }
  std::uint32_t seen_by(int seat) const { return state_.seat[checked_seat(seat)].seen_by; }

  // (known, ending, payouts by seat, winners of each pot as seat bits) or None.
  py::object result() const {
    if (state_.phase != Phase::Over) return py::none();
    py::list payouts, winners;
    for (int i = 0; i < state_.players; ++i) payouts.append(state_.payouts[i]);
    for (int k = 0; k < state_.npots; ++k) winners.append(state_.pot_winners[k]);
    return py::make_tuple(state_.known, kEndingNames[static_cast<int>(state_.ending)], payouts, winners,
                          state_.pot_stays, state_.retainer == kNobody ? -1 : state_.retainer);
  }

  int hands(int seat) const { return state_.seat[checked_seat(seat)].hands; }
  py::object retained_cards(int seat) const {
    const PlayerState& p = state_.seat[checked_seat(seat)];
    if (p.hands != 2) return py::none();
    const bool face_up = state_.face_up == seat;  // the retained hand is then `cards`, the face-up one `second`
    if (!(face_up ? p.known : p.second_known)) return py::none();
    return card_list(face_up ? p.cards.data() : p.second.data(), table_->config.cards);
  }

  // Whether a seat holds a hand dealt face up now (beside a retained one,
  // or as the one it kept).
  bool holds_face_up(int seat) const {
    return state_.face_up == checked_seat(seat) && state_.face_up_held && state_.in(seat);
  }
  // The hand dealt face up to a seat in this deal, every card of it, held
  // or not (`second` keeps it throughout); None if none was or it is unknown.
  py::object face_up_cards(int seat) const {
    const PlayerState& p = state_.seat[checked_seat(seat)];
    if (state_.face_up != seat || !p.second_known) return py::none();
    return card_list(p.second.data(), table_->config.cards);
  }

  int seer() const { return state_.seer == kNobody ? -1 : state_.seer; }
  // Draw Brag: the cards left for the draw at the start, top first (empty: unknown).
  py::list stub() const { return card_list(state_.stub.data(), state_.stub_size); }

 private:
  int checked_seat(int seat) const {
    if (seat < 0 || seat >= state_.players) throw py::index_error("no seat " + std::to_string(seat));
    return seat;
  }
  [[noreturn]] static void raise_illegal(const std::string& message, Code code) {
    py::object error = table_types().illegal(message, code_name(code));
    PyErr_SetObject(table_types().illegal.ptr(), error.ptr());
    throw py::error_already_set();
  }

  std::shared_ptr<const Table> table_;
  std::shared_ptr<const std::vector<std::string>> names_;
  std::shared_ptr<std::vector<py::object>> name_objects_;
  std::shared_ptr<Log> log_;
  std::size_t moves_ = 0;
  std::size_t events_ = 0;
  DealState state_;
};

// A C-contiguous array of T with `dims` dimensions, checked against the
// shape the other arguments give (-1: any), else InvalidHand naming it.
template <class T>
py::array_t<T, py::array::c_style | py::array::forcecast> batch_array(const py::object& value, const char* name,
                                                                      std::initializer_list<py::ssize_t> shape) {
  auto array = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!array) throw InvalidHand(std::string(name) + " must be an array of integers", -1, name);
  bool ok = array.ndim() == static_cast<py::ssize_t>(shape.size());
  py::ssize_t k = 0;
  for (py::ssize_t want : shape) {
    if (ok && want >= 0 && array.shape(k) != want) ok = false;
    ++k;
  }
  if (!ok) throw InvalidHand(std::string(name) + " has the wrong shape for this batch", -1, name);
  return array;
}

}  // namespace

void register_table(py::module_& m) {
  m.def(
      "table_register_types",
      [](py::object action, py::object illegal) {
        TableTypes& types = table_types();
        types.action = std::move(action);
        types.illegal = std::move(illegal);
        for (int k = 0; k < kKinds; ++k) types.kinds[k] = py::reinterpret_steal<py::object>(
            PyUnicode_InternFromString(kind_name(static_cast<Kind>(k))));
        for (int k = 0; k < 5; ++k) types.statuses[k] = py::str(kStatusNames[k]);
      },
      py::arg("action"), py::arg("illegal"),
      "table_register_types(action, illegal)\n--\n\n"
      "Registers prial.Action and prial.IllegalActionError once at import.");

  m.attr("TABLE_KINDS") = [] {
    py::tuple kinds(kKinds);
    for (int k = 0; k < kKinds; ++k) kinds[k] = py::str(kind_name(static_cast<Kind>(k)));
    return kinds;
  }();
  m.attr("TABLE_CODES") = [] {
    py::dict codes;
    for (int k = 1; k < kCodes; ++k) codes[py::str(code_name(static_cast<Code>(k)))] = py::str(code_rule(static_cast<Code>(k)));
    return codes;
  }();
  m.attr("PACK_VERSION") = kPackVersion;
  m.def(
      "table_pack",
      [](std::uint64_t seed, int size) {
        if (size < 3 || size > kMaxPack) throw InvalidHand("a pack holds 52 to 55 cards", -1, "pack");
        std::vector<Card> pack(static_cast<std::size_t>(size));
        shuffled_pack(seed, size, pack.data());
        return card_list(pack);
      },
      py::arg("seed"), py::arg("size"),
      "table_pack(seed, size)\n--\n\nThe pack of `size` cards the seed-to-pack algorithm gives `seed`, top first.");
  m.def(
      "table_deal",
      [](const std::vector<int>& pack, int players, int dealer, int cards, const std::vector<int>& dealt_in) {
        if (players < 2 || players > kMaxSeats || dealer < 0 || dealer >= players || cards < 3 || cards > 5)
          throw InvalidHand("cannot deal: bad players, dealer or cards", -1, "pack");
        std::uint32_t in = 0;
        for (int seat : dealt_in)
          if (seat >= 0 && seat < players) in |= 1u << seat;
        if (static_cast<int>(pack.size()) < __builtin_popcount(in) * cards)
          throw InvalidHand("the pack holds too few cards for every player dealt in", -1, "pack");
        std::vector<Card> top(pack.size());
        for (std::size_t k = 0; k < pack.size(); ++k) top[k] = static_cast<Card>(pack[k]);
        std::vector<Card> hands(static_cast<std::size_t>(players) * cards);
        deal_hands(top.data(), players, dealer, cards, in, hands.data());
        py::list out;
        for (int i = 0; i < players; ++i) {
          if (in >> i & 1u) out.append(card_list(hands.data() + i * cards, static_cast<std::size_t>(cards)));
          else out.append(py::none());
        }
        return out;
      },
      py::arg("pack"), py::arg("players"), py::arg("dealer"), py::arg("cards"), py::arg("dealt_in"),
      "table_deal(pack, players, dealer, cards, dealt_in)\n--\n\n"
      "The hands dealt from `pack` (top first) one card at a time clockwise from the dealer's left to the "
      "seats dealt in; None for the others.");
  m.attr("MAX_TABLE_CHIPS") = kMaxChips;

  py::class_<TableHandle>(m, "Table", "A betting table's resolved rules and the ruleset's tables.")
      .def(py::init([](const RulesConfig& rules, int cards, Chips ante, Chips min_stake, Chips max_stake,
                       Chips raise_limit, bool raise_double, bool pot_limit, Chips pot_cap, int blind_turns,
                       int see_cost, bool sideshow, bool agreed_showdown, bool cover, int retain_blind,
                       bool draw, Chips small_blind, Chips big_blind, Chips first_bet, bool blind_raise,
                       int blind_rounds, bool second_from_small_blind) {
             TableConfig c;
             c.cards = static_cast<std::uint8_t>(cards < 3 || cards > 5 ? 0 : cards);
             c.discards = static_cast<std::uint8_t>(cards - 3);
             c.ante = ante;
             c.min_stake = min_stake;
             c.max_stake = max_stake;
             c.raise_limit = raise_limit;
             c.raise_double = raise_double;
             c.pot_limit = pot_limit;
             c.pot_cap = pot_cap;
             c.blind_turns = blind_turns;
             c.see_cost = see_cost;
             c.sideshow = sideshow;
             c.agreed_showdown = agreed_showdown;
             c.cover = cover;
             if (retain_blind < 0 || retain_blind > 2)
               throw InvalidHand("retain_blind must be 0 (no), 1 (blind) or 2 (face up)", -1, "retain_blind");
             c.retain_blind = static_cast<Retain>(retain_blind);
             c.structure = draw ? Structure::Draw : Structure::Brag;
             c.small_blind = small_blind;
             c.big_blind = big_blind;
             c.first_bet = first_bet;
             c.blind_raise = blind_raise;
             c.blind_rounds = blind_rounds;
             c.second_from_small_blind = second_from_small_blind;
             return TableHandle{make_table(c, rules)};
           }),
           py::arg("rules"), py::arg("cards"), py::arg("ante"), py::arg("min_stake"), py::arg("max_stake"),
           py::arg("raise_limit"), py::arg("raise_double"), py::arg("pot_limit"), py::arg("pot_cap"),
           py::arg("blind_turns"), py::arg("see_cost"), py::arg("sideshow"), py::arg("agreed_showdown"),
           py::arg("cover"), py::arg("retain_blind"), py::arg("draw") = false, py::arg("small_blind") = 1,
           py::arg("big_blind") = 2, py::arg("first_bet") = 4, py::arg("blind_raise") = true,
           py::arg("blind_rounds") = 2, py::arg("second_from_small_blind") = false,
           "__init__(self, rules, cards, ante, min_stake, max_stake, raise_limit, raise_double, pot_limit, "
           "pot_cap, blind_turns, see_cost, sideshow, agreed_showdown, cover, retain_blind, draw=False, "
           "small_blind=1, big_blind=2, first_bet=4, blind_raise=True, blind_rounds=2, "
           "second_from_small_blind=False)\n--\n\n"
           "A table's rules, every option resolved (-1: no limit; retain_blind 0: no, 1: blind, 2: face up; "
           "draw: draw Brag's betting, with its blinds and bets); InvalidHandError names a bad option.");

  m.def(
      "table_self_play",
      [](const TableHandle& handle, const std::vector<double>& thresholds, std::size_t deals, std::uint64_t seed,
         Chips stack) {
        // A threshold per seat: from 0 to 1 for a threshold player, below 0 for a random one.
        const int players = static_cast<int>(thresholds.size());
        check_players(*handle.table, players);
        std::vector<SeatPolicy> policies(thresholds.size());
        for (std::size_t i = 0; i < thresholds.size(); ++i) {
          if (thresholds[i] > 1) throw InvalidHand("a threshold is from 0 to 1", static_cast<int>(i), "policies");
          policies[i] = thresholds[i] < 0 ? SeatPolicy{} : SeatPolicy{Policy::Threshold, thresholds[i]};
        }
        py::array_t<Chips> nets({deals, thresholds.size()});
        py::array_t<std::uint32_t> actions(deals);
        Chips* out = nets.mutable_data();
        std::uint32_t* played = actions.mutable_data();
        without_gil([&] { self_play(*handle.table, players, policies.data(), deals, seed, stack, out, played); });
        return py::make_tuple(nets, actions);
      },
      py::arg("table"), py::arg("thresholds"), py::arg("deals"), py::arg("seed"), py::arg("stack"),
      "table_self_play(table, thresholds, deals, seed, stack)\n--\n\n"
      "Deals played natively, a policy per seat (a threshold 0..1, or below 0 for the random policy): "
      "(nets int64 (deals, players), actions uint32 (deals,)).");

  m.def(
      "table_replay",
      [](const TableHandle& handle, const py::object& players, const py::object& dealers, const py::object& cards,
         const py::object& stacks, const py::object& offsets, const py::object& actors, const py::object& kinds,
         const py::object& amounts, const py::object& discards, const py::object& threads,
         const py::object& stub) {
        const Table& table = *handle.table;
        auto p = batch_array<std::uint8_t>(players, "players", {-1});
        const py::ssize_t deals = p.shape(0);
        auto dl = batch_array<std::uint8_t>(dealers, "dealers", {deals});
        auto c = batch_array<std::uint8_t>(cards, "cards", {deals, -1, table.config.cards});
        const py::ssize_t seats = c.shape(1);
        std::optional<py::array_t<Chips, py::array::c_style | py::array::forcecast>> st;
        if (!stacks.is_none()) st = batch_array<Chips>(stacks, "stacks", {deals, seats});
        auto off = batch_array<std::int64_t>(offsets, "offsets", {deals + 1});
        auto who = batch_array<std::uint8_t>(actors, "actors", {-1});
        const py::ssize_t actions = who.shape(0);
        auto kind = batch_array<std::uint8_t>(kinds, "kinds", {actions});
        auto amount = batch_array<Chips>(amounts, "amounts", {actions});
        auto disc = batch_array<std::uint8_t>(discards, "discards", {actions, -1});
        if (disc.shape(1) != 2 && disc.shape(1) != 3)
          throw InvalidHand("discards must hold 2 cards an action (3 at draw Brag)", -1, "discards");
        std::optional<py::array_t<Card, py::array::c_style | py::array::forcecast>> sb;
        if (!stub.is_none()) sb = batch_array<Card>(stub, "stub", {deals, -1});
        const std::int64_t* o = off.data();
        if (deals >= 0 && (o[0] != 0 || o[deals] != actions))
          throw InvalidHand("offsets must start at 0 and end at the number of actions", -1, "offsets");
        for (py::ssize_t d = 0; d < deals; ++d)
          if (o[d + 1] < o[d]) throw InvalidHand("offsets must not decrease (deal " + std::to_string(d) + ")",
                                                 static_cast<int>(d), "offsets");
        const std::size_t n = static_cast<std::size_t>(deals), width = static_cast<std::size_t>(seats);
        py::array_t<std::uint8_t> status(n), code(n), ending(n);
        py::array_t<std::int64_t> first_bad(n);
        py::array_t<Chips> payouts({n, width}), put_in({n, width}), pots({n, static_cast<std::size_t>(kMaxPots)});
        py::array_t<std::uint32_t> winners({n, static_cast<std::size_t>(kMaxPots)});
        ReplayInput in{n, width, p.data(), dl.data(), c.data(), st ? st->data() : nullptr, o, who.data(),
                       kind.data(), amount.data(), disc.data()};
        in.discard_width = static_cast<std::size_t>(disc.shape(1));
        if (sb) {
          in.stub = sb->data();
          in.stub_width = static_cast<std::size_t>(sb->shape(1));
        }
        ReplayOutput out{status.mutable_data(), first_bad.mutable_data(), code.mutable_data(), ending.mutable_data(),
                         payouts.mutable_data(), put_in.mutable_data(), winners.mutable_data(), pots.mutable_data()};
        const int thread_count_ = thread_count(threads);
        const std::uint64_t applied = without_gil([&] { return replay(table, in, out, thread_count_); });
        py::dict result;
        result["status"] = status;
        result["first_bad"] = first_bad;
        result["code"] = code;
        result["ending"] = ending;
        result["payouts"] = payouts;
        result["put_in"] = put_in;
        result["pot_winners"] = winners;
        result["pots"] = pots;
        result["applied"] = applied;
        return result;
      },
      py::arg("table"), py::arg("players"), py::arg("dealers"), py::arg("cards"), py::arg("stacks"),
      py::arg("offsets"), py::arg("actors"), py::arg("kinds"), py::arg("amounts"), py::arg("discards"),
      py::arg("threads") = py::none(), py::arg("stub") = py::none(),
      "table_replay(table, players, dealers, cards, stacks, offsets, actors, kinds, amounts, discards, threads=None, "
      "stub=None)\n--\n\n"
      "Replays many deals from arrays (discards: 2 a row, 3 at draw Brag; stub: draw Brag's cards left for the "
      "draw per deal, 255 past the last); a dict of arrays per deal (status, first_bad, code, ending, payouts, "
      "put_in, pot_winners, pots) and the actions applied.");

  py::class_<TableDeal>(m, "TableDeal", "One deal at a betting table: an immutable native state.")
      .def_static("start", &TableDeal::start, py::arg("table"), py::arg("names"), py::arg("cards"), py::arg("seed"),
                  py::arg("dealer"), py::arg("stacks"), py::arg("pot") = 0,
                  py::arg("sitting_out") = std::vector<int>{}, py::arg("retained") = -1,
                  py::arg("second") = py::none(), py::arg("stub") = py::none(),
                  "start(table, names, cards, seed, dealer, stacks, pot=0, sitting_out=[], retained=-1, "
                  "second=None, stub=None)\n--\n\n"
                  "The deal after the antes: cards per seat (None: unknown) or, when cards is None, dealt "
                  "from seed; a pot carried from the deal before, seats sitting out, and the seat keeping a "
                  "blind hand (second: its cards, None if unknown).")
      .def("legal", &TableDeal::legal, "legal(self)\n--\n\nThe legal actions, as prial.Action tuples.")
      .def("stub", &TableDeal::stub,
           "stub(self)\n--\n\nDraw Brag: the cards the draw deals from, top first (empty when unknown).")
      .def("act", &TableDeal::act, py::arg("seat"), py::arg("kind"), py::arg("amount"), py::arg("discards"),
           "act(self, seat, kind, amount, discards)\n--\n\n"
           "The next deal; raises prial.IllegalActionError when the action breaks a rule.")
      .def_property_readonly("to_act", &TableDeal::to_act, "The seat to act, -1 once over.")
      .def_property_readonly("over", &TableDeal::over, "Whether the deal has ended.")
      .def_property_readonly("stake", &TableDeal::stake, "The current stake S, in open terms.")
      .def_property_readonly("actions", &TableDeal::actions, "Actions applied so far.")
      .def_property_readonly("seer", &TableDeal::seer, "The seat whose see ended the betting, else -1.")
      .def("pots", &TableDeal::pots, "pots(self)\n--\n\n(amount, coverer seat or -1) per pot, oldest first.")
      .def("seats", &TableDeal::seats, "seats(self)\n--\n\n(status, stack or None, put in, blind stakes) per seat.")
      .def("history", &TableDeal::history, "history(self)\n--\n\nThe actions applied, as prial.Action tuples.")
      .def("events", &TableDeal::events,
           "events(self)\n--\n\n(kind, seat or -1, amount, pot, seats shown to) per event.")
      .def("cards", &TableDeal::cards, py::arg("seat"), "cards(self, seat)\n--\n\nA seat's cards; None when unknown.")
      .def("shown_cards", &TableDeal::shown_cards, py::arg("seat"),
           "shown_cards(self, seat)\n--\n\nThe cards a seat's hand shows (its kept three once it has discarded).")
      .def("discards", &TableDeal::discards, py::arg("seat"), "discards(self, seat)\n--\n\nThe cards a seat discarded.")
      .def("seen_by", &TableDeal::seen_by, py::arg("seat"),
           "seen_by(self, seat)\n--\n\nThe seats a seat's hand has been shown to, as bits.")
      .def("result", &TableDeal::result,
           "result(self)\n--\n\n(known, ending, payouts by seat, pot winners as seat bits, the pot stays, "
           "the seat that may keep its hand or -1), None until over.")
      .def("hands", [](const TableDeal& d, int seat) { return d.hands(seat); }, py::arg("seat"),
           "hands(self, seat)\n--\n\nHow many hands a seat holds (2 with a retained blind hand).")
      .def("holds_face_up", &TableDeal::holds_face_up, py::arg("seat"),
           "holds_face_up(self, seat)\n--\n\nWhether a seat holds a hand dealt face up now.")
      .def("face_up_cards", &TableDeal::face_up_cards, py::arg("seat"),
           "face_up_cards(self, seat)\n--\n\nThe hand dealt face up to a seat in this deal, held or not; None "
           "if none was or it is unknown.")
      .def("retained_cards", &TableDeal::retained_cards, py::arg("seat"),
           "retained_cards(self, seat)\n--\n\nThe retained hand a seat holds beside its own; None if none or "
           "unknown.");
}

}  // namespace prial::bindings
