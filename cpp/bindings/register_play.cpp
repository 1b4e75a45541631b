// Play: one showdown decided (decide_showdown; its result records are
// register_records.cpp's), sees in bulk (showdown_batch), odds (category
// counts, equity, best-of keys, deal counts, heads-up equity in bulk) and
// the Crash four-of-a-kind order.

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "convert.hpp"
#include "gil.hpp"
#include "prial/cancel.hpp"
#include "prial/odds.hpp"
#include "prial/partition.hpp"
#include "prial/showdown.hpp"
#include "py_evaluator.hpp"
#include "records.hpp"
#include "register.hpp"

namespace prial::bindings {
namespace {

// Seat indices as a list of ints.
py::list seat_list(const std::vector<std::size_t>& seats) {
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(seats.size()));
  if (out == nullptr) throw py::error_already_set();
  for (std::size_t i = 0; i < seats.size(); ++i) {
    PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromSize_t(seats[i]));
  }
  return py::reinterpret_steal<py::list>(out);
}

// Each takes the players as objects with id, cards, blind and stake (see
// showdown_call); the Python layer has checked the types.  A microsecond
// of work: the GIL stays held (releasing it would cost more than the call).
py::object decide(PyEvaluator& ev, const py::sequence& players, const std::optional<std::string>& seer,
                  const std::optional<std::string>& coverer, std::size_t cards_per_hand, std::uint64_t pot,
                  std::uint64_t old_pot) {
  const ShowdownCall call = showdown_call(players, seer, coverer, cards_per_hand, pot, old_pot);
  const ShowdownOutcome out = decide_showdown(ev.core(), ev.best_of_table(), call);
  py::list hands(out.hands.size());
  for (std::size_t i = 0; i < out.hands.size(); ++i) {
    const SeatHand& h = out.hands[i];
    hands[i] = make_record<7>(record_types().seat_hand, {card_bytes(call.players[i].cards), py::int_(h.strength),
                                               py::int_(h.key), ev.category(h.slot), ev.description(h.slot),
                                               card_bytes(h.kept), card_bytes(h.discarded)});
  }
  py::object payouts = py::none();
  if (!out.payouts.empty()) {
    py::list paid(out.payouts.size());
    for (std::size_t i = 0; i < out.payouts.size(); ++i) paid[i] = py::int_(out.payouts[i]);
    payouts = std::move(paid);
  }
  py::object cover = py::none();
  if (out.cover) {
    cover = make_record<3>(record_types().award, {seat_list(out.cover->winners), py::str(out.cover->reason),
                                        py::str(out.cover->decided_by)});
  }
  return make_record<8>(record_types().outcome, {py::bool_(out.see), seat_list(out.award.winners), py::str(out.award.reason),
                                       py::str(out.award.decided_by), std::move(hands), py::int_(out.new_pot),
                                       std::move(payouts), std::move(cover)});
}

py::array_t<std::uint8_t> showdown_batch(const PyEvaluator& ev, const py::object& seer, const py::object& seen,
                                         const py::object& threads, const CancelFlag* cancel) {
  const std::size_t width = hand_width(seer, "seer_cards");
  const py::array a = hand_array(seer, width, "seer_cards");
  const py::array b = hand_array(seen, width, "seen_cards");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  if (static_cast<std::size_t>(b.shape(0)) != rows) {
    throw InvalidHand("seer_cards has " + std::to_string(rows) + " rows but seen_cards has " +
                      std::to_string(b.shape(0)));
  }
  const int n_threads = thread_count(threads);
  py::array_t<std::uint8_t> out(static_cast<py::ssize_t>(rows));
  const auto* seer_in = static_cast<const Card*>(a.data());
  const auto* seen_in = static_cast<const Card*>(b.data());
  std::uint8_t* dst = out.mutable_data();
  // Four and five cards may build their key table first: released at every size.
  const std::size_t bad = without_gil(
      [&] {
        return prial::showdown_batch(ev.core(), ev.best_of_table(), seer_in, seen_in, rows, width, dst, n_threads,
                                     cancel);
      },
      worth_releasing_gil(rows) || width != 3);
  if (bad != kNoBadRow) {
    ShowdownSide side;
    const std::string message = explain_showdown_row(ev.pack_size(), seer_in, seen_in, bad, width, &side);
    throw InvalidHand(message, static_cast<long long>(bad), side == ShowdownSide::Seen ? "seen_cards" : "seer_cards");
  }
  return out;
}

// (win, tie, lose) counts over every deal (samples == 0) or `samples` seeded deals.
py::tuple equity_counts(const PyEvaluator& ev, const py::handle& hand, const py::handle& dead, int opponents,
                        std::uint64_t samples, std::uint64_t seed, const CancelFlag* cancel) {
  const std::vector<Card> cards = cards_from(hand);
  if (cards.size() < 3 || cards.size() > 5) {
    throw InvalidHand("hand: expected 3, 4 or 5 cards, got " + std::to_string(cards.size()));
  }
  const std::vector<Card> dead_cards = cards_from(dead);
  const BestOfTable& table = ev.best_of_table();
  const std::vector<Card> unseen =
      unseen_cards(table.pack_size(), cards.data(), cards.size(), dead_cards.data(), dead_cards.size());
  const int width = static_cast<int>(cards.size());
  const OutcomeCounts counts = without_gil([&] {
    return samples == 0 ? equity_exact(table, cards.data(), width, unseen, opponents, cancel)
                        : equity_sampled(table, cards.data(), width, unseen, opponents, samples, seed, cancel);
  });
  return py::make_tuple(counts.win, counts.tie, counts.lose);
}

// Hands of the pack, as many cards as `hand`, whose key is below its key:
// read from the ruleset's counting table (built on first use), which the
// ruleset's tables hold and count, rather than from a sort of every key.
std::uint64_t hands_below(const PyEvaluator& ev, const py::handle& hand) {
  const std::vector<Card> cards = cards_from(hand);
  const BestOfTable& table = ev.best_of_table();
  const BestKey key = table.key(cards.data(), cards.size(), "hand");
  const KeyCensus& census = without_gil([&]() -> const KeyCensus& { return table.census(cards.size()); });
  return census.below(census.rank(key));
}

// Exact heads-up (win, tie, lose) counts of every row, no dead cards.
py::array_t<std::uint64_t> equity_batch(const PyEvaluator& ev, const py::object& hands, const py::object& threads,
                                        const CancelFlag* cancel) {
  const py::array a = hand_array_of_widths(hands, {3, 4, 5}, "hands", "3, 4 or 5");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  const auto width = static_cast<int>(a.shape(1));
  const int n_threads = thread_count(threads);
  py::array_t<std::uint64_t> out({static_cast<py::ssize_t>(rows), py::ssize_t{3}});
  const auto* in = static_cast<const Card*>(a.data());
  std::uint64_t* dst = out.mutable_data();
  const std::size_t bad =
      without_gil([&] { return prial::equity_batch(ev.best_of_table(), in, rows, width, dst, n_threads, cancel); });
  if (bad != kNoBadRow) {
    throw InvalidHand(ev.core().explain_row(in, bad, static_cast<std::size_t>(width)), static_cast<long long>(bad));
  }
  return out;
}

// Every hand's best-of key for one width, indexed by the colex slot (a copy).
py::array_t<BestKey> best_of_keys(const PyEvaluator& ev, std::size_t width) {
  const BestOfTable& table = ev.best_of_table();
  if (width < 3 || width > 5) throw InvalidHand("cards must be 3, 4 or 5, got " + std::to_string(width));
  py::array_t<BestKey> out(static_cast<py::ssize_t>(table.slots(width)));
  const BestKey* keys = without_gil([&] { return table.keys(width); });  // built once, then shared
  std::copy(keys, keys + table.slots(width), out.mutable_data());
  return out;
}

std::vector<std::uint64_t> category_counts_of(const PyEvaluator& ev, int width) {
  const std::array<std::uint64_t, kCategories> counts =
      without_gil([&] { return category_counts(ev.core().table(), width); });
  return {counts.begin(), counts.end()};
}

}  // namespace

void register_play(py::module_& m) {
  m.def("decide_showdown", &decide, py::arg("evaluator"), py::arg("players"), py::arg("seer"), py::arg("coverer"),
        py::arg("cards_per_hand"), py::arg("pot"), py::arg("old_pot"),
        "decide_showdown(evaluator, players, seer, coverer, cards_per_hand, pot, old_pot)\n--\n\n"
        "Decides one showdown: a ShowdownOutcome.  players: objects with id, cards, blind and stake "
        "(prial.Player or a prial.v1.Player message); seer, coverer: player ids or None; cards_per_hand "
        "0 for as many as the first hand.");
  m.def("showdown_batch", &showdown_batch, py::arg("evaluator"), py::arg("seer_cards"), py::arg("seen_cards"),
        py::kw_only(), py::arg("threads") = py::none(), py::arg("cancel") = py::none(),
        "showdown_batch(evaluator, seer_cards, seen_cards, *, threads=None, cancel=None)\n--\n\n"
        "Many two-player sees: uint8 1 where the seer's hand beats the seen player's.  InvalidHandError "
        "names the first bad row, its field the side whose hand is bad.  cancel: a CancelFlag; cancel() from "
        "another thread stops the work (CancelledError).");
  m.def("category_counts", &category_counts_of, py::arg("evaluator"), py::arg("cards"),
        "category_counts(evaluator, cards)\n--\n\n"
        "Hands of `cards` (3, 4 or 5) cards in each category, by Category code.");
  m.def("equity_counts", &equity_counts, py::arg("evaluator"), py::arg("hand"), py::arg("dead"),
        py::arg("opponents"), py::arg("samples"), py::arg("seed"), py::kw_only(), py::arg("cancel") = py::none(),
        "equity_counts(evaluator, hand, dead, opponents, samples, seed, *, cancel=None)\n--\n\n"
        "(win, tie, lose) deal counts of `hand` against `opponents` hands: every deal (samples=0) or "
        "`samples` deals from `seed`.  cancel: a CancelFlag; cancel() from another thread stops the work "
        "(CancelledError).");
  m.def("hands_below", &hands_below, py::arg("evaluator"), py::arg("hand"),
        "hands_below(evaluator, hand)\n--\n\n"
        "How many hands of the pack with as many cards as `hand` (3, 4 or 5) it beats strictly.");
  m.def("equity_batch", &equity_batch, py::arg("evaluator"), py::arg("hands"), py::kw_only(),
        py::arg("threads") = py::none(), py::arg("cancel") = py::none(),
        "equity_batch(evaluator, hands, *, threads=None, cancel=None)\n--\n\n"
        "Exact heads-up counts of many hands: uint64 (N, 3) win, tie and lose opponent hands for each row "
        "of a uint8 (N, 3|4|5) array, the opponent dealt from the rest of the pack.  InvalidHandError names "
        "the first bad row.  cancel: a CancelFlag; cancel() from another thread stops the work "
        "(CancelledError).");
  m.def("best_of_keys", &best_of_keys, py::arg("evaluator"), py::arg("cards"),
        "best_of_keys(evaluator, cards)\n--\n\n"
        "Every `cards`-card hand's best-of key (uint32), by colex slot.");
  m.def("deal_count", &deal_count, py::arg("unseen"), py::arg("hand_size"), py::arg("opponents"),
        "deal_count(unseen, hand_size, opponents)\n--\n\n"
        "Number of deals of `opponents` hands of `hand_size` cards from `unseen` cards (a float).");

  py::tuple names(kFourOrderNames.size());
  for (std::size_t i = 0; i < kFourOrderNames.size(); ++i) names[i] = py::str(kFourOrderNames[i]);
  m.attr("FOUR_ORDERS") = names;
  m.def("four_of_a_kind_order",
        [](const PyEvaluator& ev, const std::string& four_order) {
          const auto ranks = four_of_a_kind_order(ev.core().table(), four_order_from(four_order));
          py::tuple out(ranks.size());
          for (std::size_t i = 0; i < ranks.size(); ++i) out[i] = py::int_(ranks[i]);
          return out;
        },
        py::arg("evaluator"), py::arg("four_order"),
        "four_of_a_kind_order(evaluator, four_order)\n--\n\n"
        "Ranks (0 = two ... 12 = ace) strongest first for the four-of-a-kind bonus under the evaluator's "
        "ruleset and `four_order` (one of FOUR_ORDERS).");
}

}  // namespace prial::bindings
