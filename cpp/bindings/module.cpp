// pybind11 bindings: translation only.  Python values and numpy arrays in,
// Python values and numpy arrays out; every rule lives in cpp/src.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdio>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "prial/bestof.hpp"
#include "prial/cards.hpp"
#include "prial/evaluator.hpp"
#include "prial/kernels.hpp"
#include "prial/odds.hpp"
#include "prial/partition.hpp"
#include "prial/rules.hpp"
#include "prial/showdown.hpp"
#include "prial/wire.hpp"

namespace py = pybind11;

namespace {

// Result types are plain Python NamedTuples defined in prial/_types.py and
// registered here once at import, so results are built without a Python call.
struct ResultTypes {
  py::object hand_value;  // prial.HandValue
  py::list categories;    // prial.Category members by value
  py::object best_hand;   // prial.BestHand
  py::object split;       // prial.Split
};
ResultTypes& result_types() {
  static ResultTypes* types = new ResultTypes();  // leaked: lives as long as the module
  return *types;
}

// Builds an instance of a tuple subclass (a NamedTuple) from owned items,
// as tuple.__new__ does, without the cost of calling the class.
py::object make_named_tuple(const py::object& type, std::initializer_list<py::object> items) {
  auto* tp = reinterpret_cast<PyTypeObject*>(type.ptr());
  PyObject* obj = tp->tp_alloc(tp, static_cast<Py_ssize_t>(items.size()));
  if (obj == nullptr) throw py::error_already_set();
  Py_ssize_t i = 0;
  for (const auto& item : items) PyTuple_SET_ITEM(obj, i++, item.inc_ref().ptr());
  return py::reinterpret_steal<py::object>(obj);
}

// The UTF-8 bytes of a Python str (kept alive by the str).  A str holding a
// lone surrogate has no UTF-8 form: that is bad card text, reported as such,
// not an encoding error (found by tests/fuzz/fuzz_cards.py).
std::string_view utf8_of(const py::handle& text) {
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (utf8 != nullptr) return {utf8, static_cast<std::size_t>(size)};
  PyErr_Clear();
  const Py_ssize_t length = PyUnicode_GetLength(text.ptr());
  for (Py_ssize_t i = 0; i < length; ++i) {
    const Py_UCS4 c = PyUnicode_ReadChar(text.ptr(), i);
    if (c >= 0xD800 && c <= 0xDFFF) {
      char code[8];
      std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(c));
      throw prial::InvalidHand("character " + std::to_string(i) + " of the card text is a lone surrogate (U+" +
                               code + "), not a card");
    }
  }
  throw prial::InvalidHand("card text is not valid Unicode");
}

// Cards from a Python value: text ("3s 2h Ah") or a sequence of indices.
std::vector<prial::Card> cards_from(const py::handle& value) {
  if (PyUnicode_Check(value.ptr())) return prial::parse_cards(utf8_of(value));
  PyObject* seq = PySequence_Fast(value.ptr(), "");
  if (seq == nullptr) {
    PyErr_Clear();
    throw prial::InvalidHand("cards must be text such as \"3s 2h Ah\" or a sequence of card indices, got " +
                             std::string(Py_TYPE(value.ptr())->tp_name));
  }
  py::object owner = py::reinterpret_steal<py::object>(seq);
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  std::vector<prial::Card> cards(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    if (PyBool_Check(item) || !PyIndex_Check(item)) {
      throw prial::InvalidHand("position " + std::to_string(i) + ": expected a card index, got " +
                               std::string(Py_TYPE(item)->tp_name));
    }
    const Py_ssize_t v = PyNumber_AsSsize_t(item, nullptr);  // clips huge values, never fails
    if (v < 0 || v >= prial::kMaxPack) {
      throw prial::InvalidHand("position " + std::to_string(i) + ": card index " +
                               py::str(item).cast<std::string>() + " is out of range (0..54)");
    }
    cards[static_cast<std::size_t>(i)] = static_cast<prial::Card>(v);
  }
  return cards;
}

// The common evaluate() argument, an exact list or tuple of three in-range
// ints, read without the heap allocation of cards_from; false sends
// anything else (and every error) through cards_from.
bool three_indices(const py::handle& value, prial::Card (&cards)[3]) {
  PyObject* obj = value.ptr();
  const bool is_list = PyList_CheckExact(obj);
  if (!is_list && !PyTuple_CheckExact(obj)) return false;
  if ((is_list ? PyList_GET_SIZE(obj) : PyTuple_GET_SIZE(obj)) != 3) return false;
  for (Py_ssize_t i = 0; i < 3; ++i) {
    PyObject* item = is_list ? PyList_GET_ITEM(obj, i) : PyTuple_GET_ITEM(obj, i);
    if (!PyLong_CheckExact(item)) return false;
    const long v = PyLong_AsLong(item);
    if (v < 0 || v >= prial::kMaxPack) {  // also -1 with an overflow error set
      PyErr_Clear();
      return false;
    }
    cards[i] = static_cast<prial::Card>(v);
  }
  return true;
}

py::list card_list(const prial::Card* cards, std::size_t count) {
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(count));
  if (out == nullptr) throw py::error_already_set();
  for (std::size_t i = 0; i < count; ++i) {
    PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromLong(cards[i]));  // small ints: cached, never fail
  }
  return py::reinterpret_steal<py::list>(out);
}
py::list card_list(const std::vector<prial::Card>& cards) { return card_list(cards.data(), cards.size()); }

// A uint8 array of shape (N, width), C-contiguous, used in place.
py::array hand_array(const py::object& value, std::size_t width, const char* name) {
  const std::string expected = std::string(name) + " must be a C-contiguous numpy uint8 array of shape (N, " +
                               std::to_string(width) + ")";
  if (!py::isinstance<py::array>(value)) {
    throw prial::InvalidHand(expected + ", got " + std::string(Py_TYPE(value.ptr())->tp_name));
  }
  auto a = py::reinterpret_borrow<py::array>(value);
  if (a.dtype().kind() != 'u' || a.dtype().itemsize() != 1) {
    throw prial::InvalidHand(expected + ", got dtype " + py::str(a.dtype()).cast<std::string>() +
                             " (check the values are card indices, then use a.astype(np.uint8))");
  }
  if (a.ndim() != 2 || static_cast<std::size_t>(a.shape(1)) != width) {
    std::string shape = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    throw prial::InvalidHand(expected + ", got shape " + shape + (a.ndim() == 1 ? ",)" : ")"));
  }
  if (!(a.flags() & py::array::c_style)) {
    throw prial::InvalidHand(expected + ", got a non-contiguous view (use np.ascontiguousarray(a))");
  }
  return a;
}

// A small integer argument (threads, hands, opponents): a Python int that
// fits a C int, else InvalidHand naming the argument.  pybind11's own int
// conversion raises RuntimeError/TypeError for huge or non-integer values
// (found by the fuzz harnesses: threads=2**40, gRPC opponents=2**32-1).
int int_argument(const py::handle& value, const char* name) {
  if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr())) {
    throw prial::InvalidHand(std::string(name) + " must be an integer, got " +
                             std::string(Py_TYPE(value.ptr())->tp_name));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || v < INT_MIN || v > INT_MAX) {
    throw prial::InvalidHand(std::string(name) + " is out of range, got " + py::str(value).cast<std::string>());
  }
  return static_cast<int>(v);
}

// ---- best of four / five and partitioning: argument translation ----------

// The width of a batch whose rows may hold any of `widths` cards; then the
// usual hand_array checks.
py::array hand_array_of_widths(const py::object& value, std::initializer_list<std::size_t> widths,
                               const char* name, const char* expected) {
  if (py::isinstance<py::array>(value)) {
    auto a = py::reinterpret_borrow<py::array>(value);
    if (a.ndim() == 2) {
      for (std::size_t w : widths) {
        if (static_cast<std::size_t>(a.shape(1)) == w) return hand_array(value, w, name);
      }
      throw prial::InvalidHand(std::string(name) + " must have " + expected + " cards a row, got " +
                               std::to_string(a.shape(1)));
    }
  }
  return hand_array(value, *widths.begin(), name);  // explains the dtype / shape problem
}

prial::Objective objective_from(const std::string& name) {
  if (name == "lexicographic") return prial::Objective::Lexicographic;
  if (name == "expected_points") return prial::Objective::ExpectedPoints;
  throw prial::InvalidHand("objective must be 'lexicographic' or 'expected_points', got '" + name + "'");
}

// None -> -1; a Category (or its value) or its name ("PAIR", "pair").
int min_category_from(const py::object& value) {
  static const char* const kNames[prial::kCategories] = {"HIGH_CARD", "PAIR", "FLUSH",
                                                         "RUN", "RUNNING_FLUSH", "PRIAL"};
  if (value.is_none()) return -1;
  if (py::isinstance<py::str>(value)) {
    std::string name = value.cast<std::string>();
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (char& c : name) if (c == ' ') c = '_';
    for (int i = 0; i < prial::kCategories; ++i) if (name == kNames[i]) return i;
    throw prial::InvalidHand("min_category: unknown category '" + value.cast<std::string>() +
                             "' (HIGH_CARD, PAIR, FLUSH, RUN, RUNNING_FLUSH, PRIAL)");
  }
  if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value)) {
    const int v = int_argument(value, "min_category");
    if (v >= 0 && v < prial::kCategories) return v;
  }
  throw prial::InvalidHand("min_category must be a prial.Category or its name, got " +
                           py::repr(value).cast<std::string>());
}

int thread_count(const py::object& threads) {
  if (threads.is_none()) return 0;  // all cores
  const int n = int_argument(threads, "threads");
  if (n < 1) throw prial::InvalidHand("threads must be at least 1, got " + std::to_string(n));
  return n;
}

// Three-card batches this small keep the GIL: their work takes under a
// microsecond, less than releasing and retaking the GIL, which under load
// also hands the interpreter to another thread in the middle of a call.
constexpr std::size_t kKeepGilBelowRows = 2048;

// The evaluator as Python sees it: the C++ Evaluator plus a cache of the
// description strings, made on first use.
class PyEvaluator {
 public:
  explicit PyEvaluator(const prial::RulesConfig& rules)
      : ev_(rules), best_of_(prial::best_of_table(rules)), descriptions_(ev_.table().slots()) {}

  py::object evaluate(const py::handle& hand) {
    prial::Card fixed[3];
    std::vector<prial::Card> parsed;
    const bool quick = three_indices(hand, fixed);
    if (!quick) parsed = cards_from(hand);
    const prial::Card* cards = quick ? fixed : parsed.data();
    const std::size_t count = quick ? 3 : parsed.size();
    const std::uint32_t slot = ev_.slot(cards, count);
    const auto& table = ev_.table();
    return make_named_tuple(
        result_types().hand_value,
        {py::int_(table.strength(slot)),
         result_types().categories[static_cast<std::size_t>(table.category(slot))],
         card_list(cards, count), description(slot)});
  }

  py::array_t<prial::Strength> evaluate_batch(const py::object& hands, const py::object& threads) {
    const py::array a = hand_array(hands, 3, "hands");
    const auto rows = static_cast<std::size_t>(a.shape(0));
    const int n_threads = thread_count(threads);
    py::array_t<prial::Strength> out(static_cast<py::ssize_t>(rows));
    const auto* in = static_cast<const prial::Card*>(a.data());
    prial::Strength* dst = out.mutable_data();
    std::size_t bad;
    {
      // Safe without the GIL: `a` and `out` stay referenced by this frame,
      // so neither buffer can be freed or resized (numpy refuses to resize
      // a referenced array); the C++ code touches no Python object.
      std::optional<py::gil_scoped_release> release;
      if (rows >= kKeepGilBelowRows) release.emplace();
      bad = ev_.evaluate_batch(in, rows, dst, n_threads);
    }
    if (bad != prial::kNoBadRow) {
      throw prial::InvalidHand(ev_.explain_row(in, bad, 3), static_cast<long long>(bad));
    }
    return out;
  }

  const prial::Evaluator& core() const noexcept { return ev_; }
  const prial::BestOfTable& best_of_table() const noexcept { return *best_of_; }
  // ---- best of four / five -------------------------------------------

  py::object best_of(const py::handle& hand) {
    const std::vector<prial::Card> cards = cards_from(hand);
    const prial::BestChoice c = best_of_->choose(cards.data(), cards.size());
    std::vector<prial::Card> kept(c.kept.begin(), c.kept.end());
    std::vector<prial::Card> discarded(c.discarded.begin(), c.discarded.begin() + c.discards);
    return make_named_tuple(
        result_types().best_hand,
        {card_list(kept), card_list(discarded), py::int_(prial::strength_of_key(c.key)),
         py::int_(c.key), category(c.slot), description(c.slot)});
  }

  py::array_t<prial::BestKey> best_of_batch(const py::object& hands, const py::object& threads) {
    const py::array a = hand_array_of_widths(hands, {3, 4, 5}, "hands", "3, 4 or 5");
    const auto rows = static_cast<std::size_t>(a.shape(0));
    const auto width = static_cast<std::size_t>(a.shape(1));
    const int n_threads = thread_count(threads);
    py::array_t<prial::BestKey> out(static_cast<py::ssize_t>(rows));
    const auto* in = static_cast<const prial::Card*>(a.data());
    prial::BestKey* dst = out.mutable_data();
    std::size_t bad;
    {
      // Safe without the GIL, as in evaluate_batch: both buffers are held by
      // this frame and the C++ code touches no Python object (the lazy table
      // build is guarded by its own once_flag).
      py::gil_scoped_release release;
      bad = best_of_->key_batch(in, rows, width, dst, n_threads);
    }
    if (bad != prial::kNoBadRow) {
      throw prial::InvalidHand(ev_.explain_row(in, bad, width), static_cast<long long>(bad));
    }
    return out;
  }

  double best_of_build_seconds(std::size_t width) const { return best_of_->build_seconds(width); }

  // ---- partitioning ---------------------------------------------------

  py::object partition(const py::handle& hand, const py::object& hands, const std::string& objective,
                       const py::object& min_category, const py::object& opponents) {
    const std::vector<prial::Card> cards = cards_from(hand);
    const prial::Partitioner& p =
        partitioner(static_cast<int>(cards.size()), int_argument(hands, "hands"), objective, min_category,
                    int_argument(opponents, "opponents"));
    const prial::Split s = p.split(cards.data(), cards.size());
    py::list hand_lists, strengths, categories, descriptions;
    for (int h = 0; h < s.formed; ++h) {
      hand_lists.append(card_list({s.hands[h].begin(), s.hands[h].end()}));
      strengths.append(py::int_(s.strengths[h]));
      categories.append(category(s.slots[h]));
      descriptions.append(description(s.slots[h]));
    }
    const py::object points = s.expected_points >= 0 ? py::object(py::float_(s.expected_points))
                                                     : py::object(py::none());
    return make_named_tuple(
        result_types().split,
        {hand_lists, card_list({s.discards.begin(), s.discards.begin() + s.discard_count}), strengths,
         categories, descriptions, points, py::int_(s.candidates)});
  }

  py::tuple partition_batch(const py::object& deals, const py::object& hands_arg, const std::string& objective,
                            const py::object& min_category, const py::object& opponents,
                            const py::object& threads) {
    const int hands = int_argument(hands_arg, "hands");
    const py::array a = hand_array_of_widths(
        deals, {13, 6, 7, 8, 9, 10, 11, 12, 14, 15}, "cards", "6 to 15");
    const auto rows = static_cast<std::size_t>(a.shape(0));
    const int n_threads = thread_count(threads);
    const prial::Partitioner& p =
        partitioner(static_cast<int>(a.shape(1)), hands, objective, min_category,
                    int_argument(opponents, "opponents"));
    const auto k = static_cast<py::ssize_t>(hands);
    py::array_t<prial::Card> out_hands({static_cast<py::ssize_t>(rows), k, py::ssize_t{3}});
    py::array_t<prial::Strength> out_strengths({static_cast<py::ssize_t>(rows), k});
    const auto* in = static_cast<const prial::Card*>(a.data());
    prial::Card* dst_hands = out_hands.mutable_data();
    prial::Strength* dst_strengths = out_strengths.mutable_data();
    std::size_t bad;
    {
      // Safe without the GIL: the three buffers are held by this frame, the
      // Partitioner lives in this evaluator's cache (never erased) and the
      // C++ code touches no Python object.
      py::gil_scoped_release release;
      bad = p.split_batch(in, rows, dst_hands, dst_strengths, n_threads);
    }
    if (bad != prial::kNoBadRow) {
      throw prial::InvalidHand(ev_.explain_row(in, bad, static_cast<std::size_t>(a.shape(1))),
                               static_cast<long long>(bad));
    }
    return py::make_tuple(out_hands, out_strengths);
  }

  // ---- one showdown ---------------------------------------------------
  // Each takes the players as objects with id, cards, blind and stake (see
  // showdown_call); the Python layer has checked the types.  A
  // microsecond of work: the GIL stays held (releasing it would cost more
  // than the call).

  // (see, winners, reason, decided_by, hands, new_pot, payouts, cover):
  // winners are seat indices, each hand is (cards, strength, key, category,
  // description, kept, discarded) with card bytes, payouts a list or None,
  // cover (winners, reason, decided_by) or None.
  py::tuple showdown(const py::sequence& players, const std::optional<std::string>& seer,
                     const std::optional<std::string>& coverer, std::size_t cards_per_hand, std::uint64_t pot,
                     std::uint64_t old_pot) {
    const prial::ShowdownCall call = showdown_call(players, seer, coverer, cards_per_hand, pot, old_pot);
    const prial::ShowdownOutcome out = prial::decide_showdown(ev_, *best_of_, call);
    py::list hands;
    for (std::size_t i = 0; i < out.hands.size(); ++i) {
      const prial::SeatHand& h = out.hands[i];
      hands.append(py::make_tuple(card_bytes(call.players[i].cards), h.strength, h.key, category(h.slot),
                                  description(h.slot), card_bytes(h.kept), card_bytes(h.discarded)));
    }
    const py::object payouts = out.payouts.empty() ? py::object(py::none()) : py::object(py::cast(out.payouts));
    const py::object cover = out.cover ? py::object(award_tuple(*out.cover)) : py::object(py::none());
    const py::tuple award = award_tuple(out.award);
    return py::make_tuple(out.see, award[0], award[1], award[2], hands, out.new_pot, payouts, cover);
  }

  // The same decision as a serialized prial.v1.ShowdownResponse (wire.hpp).
  py::bytes showdown_message(const py::sequence& players, const std::optional<std::string>& seer,
                             const std::optional<std::string>& coverer, std::size_t cards_per_hand,
                             std::uint64_t pot, std::uint64_t old_pot) {
    const prial::ShowdownCall call = showdown_call(players, seer, coverer, cards_per_hand, pot, old_pot);
    return prial::encode_showdown_response(call, prial::decide_showdown(ev_, *best_of_, call), ev_.table());
  }

  int classes() const { return ev_.table().classes(); }
  std::size_t slots() const { return ev_.table().slots(); }
  int pack_size() const { return ev_.table().pack_size(); }

 private:
  py::object description(std::uint32_t slot) {
    py::object& d = descriptions_[slot];
    if (!d) d = py::str(ev_.table().description(slot));
    return d;
  }

  // Players are read by attribute, so both a prial.Player and a
  // prial.v1.Player message serve as they are (no per-call Python copy):
  // id, cards, blind, stake.  Cards are text or indices, or a prial.v1.Cards
  // message (its text, else its index bytes).
  static prial::ShowdownCall showdown_call(const py::sequence& players, const std::optional<std::string>& seer,
                                           const std::optional<std::string>& coverer, std::size_t cards_per_hand,
                                           std::uint64_t pot, std::uint64_t old_pot) {
    prial::ShowdownCall call;
    call.seer = seer;
    call.coverer = coverer;
    call.cards_per_hand = cards_per_hand;
    call.pot = pot;
    call.old_pot = old_pot;
    call.players.reserve(players.size());
    for (const auto& item : players) {
      // Owned: a message container makes a new object per item.
      const py::object player = item;
      prial::Seat& seat = call.players.emplace_back();
      seat.id = attribute(player, names().id).cast<std::string>();
      try {
        seat.cards = cards_from(message_cards(attribute(player, names().cards)));
      } catch (const prial::InvalidHand& e) {
        throw prial::InvalidHand("player " + prial::quoted(seat.id) + ": " + e.what());
      }
      seat.blind = attribute(player, names().blind).cast<bool>();
      seat.stake = attribute(player, names().stake).cast<std::uint64_t>();
    }
    return call;
  }

  // Attribute names made once (interned), not per lookup.
  struct AttributeNames {
    py::str id{"id"}, cards{"cards"}, blind{"blind"}, stake{"stake"}, text{"text"}, indices{"indices"};
  };
  static const AttributeNames& names() {
    static const AttributeNames* made = new AttributeNames();  // leaked: lives as long as the module
    return *made;
  }

  static py::object attribute(const py::handle& owner, const py::str& name) {
    PyObject* value = PyObject_GetAttr(owner.ptr(), name.ptr());
    if (value == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(value);
  }

  // A prial.v1.Cards message's text, else its index bytes; anything else as it is.
  static py::object message_cards(py::object cards) {
    if (PyUnicode_Check(cards.ptr()) || PySequence_Check(cards.ptr())) return cards;
    PyObject* text = PyObject_GetAttr(cards.ptr(), names().text.ptr());
    if (text == nullptr) {  // not a Cards message: cards_from explains what it is
      PyErr_Clear();
      return cards;
    }
    py::object owned = py::reinterpret_steal<py::object>(text);
    return !PyUnicode_Check(text) || PyUnicode_GET_LENGTH(text) > 0 ? owned : attribute(cards, names().indices);
  }

  static py::bytes card_bytes(const std::vector<prial::Card>& cards) {
    return {reinterpret_cast<const char*>(cards.data()), cards.size()};
  }

  static py::tuple award_tuple(const prial::Award& a) {
    return py::make_tuple(py::tuple(py::cast(a.winners)), a.reason, a.decided_by);
  }

  py::object category(std::uint32_t slot) const {
    return result_types().categories[static_cast<std::size_t>(ev_.table().category(slot))];
  }

  // One Partitioner per option set, kept for the evaluator's lifetime (a
  // handful at most): its minimum-category threshold and opponent model
  // are then found once.
  const prial::Partitioner& partitioner(int cards, int hands, const std::string& objective,
                                        const py::object& min_category, int opponents) {
    prial::PartitionOptions o;
    o.cards = cards;
    o.hands = hands;
    o.objective = objective_from(objective);
    o.min_category = min_category_from(min_category);
    o.opponents = opponents;
    if (o.objective == prial::Objective::Lexicographic) o.opponents = 0;  // unused: one cache entry
    const auto key = std::make_tuple(o.cards, o.hands, static_cast<int>(o.objective), o.min_category,
                                     o.opponents);
    auto it = partitioners_.find(key);
    if (it != partitioners_.end()) return *it->second;
    std::unique_ptr<prial::Partitioner> made;
    {
      // The first expected-points use builds the opponent model (a fraction
      // of a second); nothing Python is touched meanwhile.
      py::gil_scoped_release release;
      made = std::make_unique<prial::Partitioner>(prial::three_card_table(ev_.rules()), o);
    }
    return *partitioners_.emplace(key, std::move(made)).first->second;
  }

  prial::Evaluator ev_;
  std::shared_ptr<const prial::BestOfTable> best_of_;
  std::vector<py::object> descriptions_;
  std::map<std::tuple<int, int, int, int, int>, std::unique_ptr<prial::Partitioner>> partitioners_;
};

// ---- Showdown and odds (issue 4): sees in bulk, category counts, equity ----

// Width of a (N, width) hand array: 3, 4 or 5.  For anything that is not a
// two-dimensional array, 3 (hand_array then explains what is wrong).
std::size_t hand_width(const py::object& value, const char* name) {
  if (!py::isinstance<py::array>(value)) return 3;
  const auto a = py::reinterpret_borrow<py::array>(value);
  if (a.ndim() != 2) return 3;
  if (a.shape(1) < 3 || a.shape(1) > 5) {
    throw prial::InvalidHand(std::string(name) + " must have 3, 4 or 5 cards a row, got shape (" +
                             std::to_string(a.shape(0)) + ", " + std::to_string(a.shape(1)) + ")");
  }
  return static_cast<std::size_t>(a.shape(1));
}

py::array_t<std::uint8_t> showdown_batch(const PyEvaluator& ev, const py::object& seer,
                                         const py::object& seen, const py::object& threads) {
  const std::size_t width = hand_width(seer, "seer_cards");
  const py::array a = hand_array(seer, width, "seer_cards");
  const py::array b = hand_array(seen, width, "seen_cards");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  if (static_cast<std::size_t>(b.shape(0)) != rows) {
    throw prial::InvalidHand("seer_cards has " + std::to_string(rows) + " rows but seen_cards has " +
                             std::to_string(b.shape(0)));
  }
  const int n_threads = thread_count(threads);
  py::array_t<std::uint8_t> out(static_cast<py::ssize_t>(rows));
  const auto* seer_in = static_cast<const prial::Card*>(a.data());
  const auto* seen_in = static_cast<const prial::Card*>(b.data());
  std::uint8_t* dst = out.mutable_data();
  std::size_t bad;
  {
    // Safe without the GIL: as in evaluate_batch, `a`, `b` and `out` stay
    // referenced by this frame and the C++ code touches no Python object.
    // (Four and five cards may build their key table first: always released.)
    std::optional<py::gil_scoped_release> release;
    if (rows >= kKeepGilBelowRows || width != 3) release.emplace();
    bad = prial::showdown_batch(ev.core(), ev.best_of_table(), seer_in, seen_in, rows, width, dst,
                                n_threads);
  }
  if (bad != prial::kNoBadRow) {
    throw prial::InvalidHand(
        prial::explain_showdown_row(ev.pack_size(), seer_in, seen_in, bad, width),
        static_cast<long long>(bad));
  }
  return out;
}

// (win, tie, lose) counts over every deal (samples == 0) or `samples` seeded deals.
py::tuple equity_counts(const PyEvaluator& ev, const py::handle& hand, const py::handle& dead,
                        int opponents, std::uint64_t samples, std::uint64_t seed) {
  const std::vector<prial::Card> cards = cards_from(hand);
  if (cards.size() < 3 || cards.size() > 5) {
    throw prial::InvalidHand("hand: expected 3, 4 or 5 cards, got " + std::to_string(cards.size()));
  }
  const std::vector<prial::Card> dead_cards = cards_from(dead);
  const auto& table = ev.best_of_table();
  const std::vector<prial::Card> unseen = prial::unseen_cards(
      table.pack_size(), cards.data(), cards.size(), dead_cards.data(), dead_cards.size());
  const int width = static_cast<int>(cards.size());
  prial::OutcomeCounts counts;
  {
    // Safe without the GIL: only C++ vectors owned by this frame and the
    // shared immutable tables are used.
    py::gil_scoped_release release;
    counts = samples == 0
                 ? prial::equity_exact(table, cards.data(), width, unseen, opponents)
                 : prial::equity_sampled(table, cards.data(), width, unseen, opponents, samples, seed);
  }
  return py::make_tuple(counts.win, counts.tie, counts.lose);
}

// Every hand's best-of key for one width, indexed by the colex slot (a copy).
py::array_t<prial::BestKey> best_of_keys(const PyEvaluator& ev, std::size_t width) {
  const auto& table = ev.best_of_table();
  if (width < 3 || width > 5) throw prial::InvalidHand("cards must be 3, 4 or 5, got " + std::to_string(width));
  py::array_t<prial::BestKey> out(static_cast<py::ssize_t>(table.slots(width)));
  const prial::BestKey* keys;
  {
    // Safe without the GIL: builds (once, thread-safe) the shared table.
    py::gil_scoped_release release;
    keys = table.keys(width);
  }
  std::copy(keys, keys + table.slots(width), out.mutable_data());
  return out;
}

void bind_showdown_and_odds(py::module_& m) {
  m.def("showdown_batch", &showdown_batch, py::arg("evaluator"), py::arg("seer_cards"),
        py::arg("seen_cards"), py::kw_only(), py::arg("threads") = py::none());
  m.def("category_counts", [](const PyEvaluator& ev, int width) {
    std::array<std::uint64_t, prial::kCategories> counts;
    {
      // Safe without the GIL: reads the shared immutable table only.
      py::gil_scoped_release release;
      counts = prial::category_counts(ev.core().table(), width);
    }
    return std::vector<std::uint64_t>(counts.begin(), counts.end());
  }, py::arg("evaluator"), py::arg("cards"));
  m.def("equity_counts", &equity_counts, py::arg("evaluator"), py::arg("hand"), py::arg("dead"),
        py::arg("opponents"), py::arg("samples"), py::arg("seed"));
  m.def("best_of_keys", &best_of_keys, py::arg("evaluator"), py::arg("cards"));
  m.def("deal_count", &prial::deal_count, py::arg("unseen"), py::arg("hand_size"), py::arg("opponents"));
}

// ---- Text columns (prial score): Arrow string buffers in, card arrays out ----

// A read-only view of a buffer-protocol object (a pyarrow.Buffer), or an
// empty view for None (Arrow omits the validity buffer when nothing is null).
struct BufferView {
  py::buffer_info info;
  const void* ptr = nullptr;
  std::size_t size = 0;
};
BufferView buffer_view(const py::object& value) {
  BufferView view;
  if (value.is_none()) return view;
  view.info = py::reinterpret_borrow<py::buffer>(value).request();
  view.ptr = view.info.ptr;
  view.size = static_cast<std::size_t>(view.info.size * view.info.itemsize);
  return view;
}

py::tuple parse_text_column(const py::object& validity, const py::object& offsets, const py::object& data,
                            bool large_offsets, std::int64_t offset, std::size_t rows, std::size_t width,
                            int pack_size, const py::object& threads) {
  const BufferView valid_view = buffer_view(validity), offsets_view = buffer_view(offsets),
                   data_view = buffer_view(data);
  const std::size_t offset_bytes = large_offsets ? 8 : 4;
  if (offset < 0 || (rows > 0 && offsets_view.size < (static_cast<std::size_t>(offset) + rows + 1) * offset_bytes)) {
    throw prial::InvalidHand("text column: offsets buffer too small for " + std::to_string(rows) + " rows");
  }
  static const char kEmpty = 0;
  prial::TextColumn column;
  column.offsets = offsets_view.ptr;
  column.large_offsets = large_offsets;
  column.data = data_view.ptr ? static_cast<const char*>(data_view.ptr) : &kEmpty;
  column.validity = static_cast<const std::uint8_t*>(valid_view.ptr);
  column.offset = offset;
  column.rows = rows;
  const int n_threads = thread_count(threads);
  py::array_t<std::uint8_t> cards({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(width)});
  py::array_t<std::uint8_t> counts(static_cast<py::ssize_t>(rows));
  py::array_t<std::uint8_t> status(static_cast<py::ssize_t>(rows));
  py::array_t<std::uint8_t> where(static_cast<py::ssize_t>(rows));
  {
    // Safe without the GIL: the input buffers are held by the caller's
    // arguments and the buffer views above; the outputs are new arrays
    // referenced only by this frame; the C++ code touches no Python object.
    py::gil_scoped_release release;
    prial::parse_cards_column(column, width, pack_size, cards.mutable_data(), counts.mutable_data(),
                              reinterpret_cast<prial::ParseStatus*>(status.mutable_data()),
                              where.mutable_data(), n_threads);
  }
  return py::make_tuple(cards, counts, status, where);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "prial native core (internal: use the prial package)";

  // prial.InvalidHandError is defined in Python (prial/_errors.py) so Python
  // code raises the same class; C++ errors arrive with their row attached.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const prial::InvalidShowdown& e) {
      py::object type = py::module_::import("prial.errors").attr("InvalidShowdownError");
      PyErr_SetObject(type.ptr(), type(e.what()).ptr());
    } catch (const prial::InvalidHand& e) {
      py::object type = py::module_::import("prial.errors").attr("InvalidHandError");
      py::object row = e.row() >= 0 ? py::object(py::int_(e.row())) : py::object(py::none());
      py::object instance = type(e.what(), py::arg("row") = row);
      PyErr_SetObject(type.ptr(), instance.ptr());
    }
  });

  m.def("_register_types", [](py::object hand_value, py::list categories) {
    result_types().hand_value = std::move(hand_value);
    result_types().categories = std::move(categories);
  });
  m.def("_register_bestof_types", [](py::object best_hand, py::object split) {
    result_types().best_hand = std::move(best_hand);
    result_types().split = std::move(split);
  });

  py::class_<prial::RulesConfig>(m, "RulesConfig")
      .def(py::init([](int ace_two_three, int top_prial, bool running_flush_over_prial, bool lowball,
                       std::uint64_t wild_mask, int jokers, int wild_ties) {
             prial::RulesConfig r;
             r.ace_two_three = static_cast<prial::AceTwoThree>(ace_two_three);
             r.top_prial = static_cast<prial::TopPrial>(top_prial);
             r.running_flush_over_prial = running_flush_over_prial;
             r.lowball = lowball;
             r.wild_mask = wild_mask;
             r.jokers = jokers;
             r.wild_ties = static_cast<prial::WildTies>(wild_ties);
             r.validate();
             return r;
           }),
           py::kw_only(), py::arg("ace_two_three"), py::arg("top_prial"),
           py::arg("running_flush_over_prial"), py::arg("lowball"), py::arg("wild_mask"),
           py::arg("jokers"), py::arg("wild_ties"));

  py::class_<PyEvaluator>(m, "Evaluator")
      .def(py::init<const prial::RulesConfig&>(), py::arg("config"))
      .def("evaluate", &PyEvaluator::evaluate, py::arg("hand"))
      .def("evaluate_batch", &PyEvaluator::evaluate_batch, py::arg("hands"), py::kw_only(),
           py::arg("threads") = py::none())
      // best of four / five and partitioning
      .def("best_of", &PyEvaluator::best_of, py::arg("cards"))
      .def("_showdown", &PyEvaluator::showdown, py::arg("players"), py::arg("seer"), py::arg("coverer"),
           py::arg("cards_per_hand"), py::arg("pot"), py::arg("old_pot"))
      .def("_showdown_message", &PyEvaluator::showdown_message, py::arg("players"), py::arg("seer"),
           py::arg("coverer"), py::arg("cards_per_hand"), py::arg("pot"), py::arg("old_pot"))
      .def("best_of_batch", &PyEvaluator::best_of_batch, py::arg("hands"), py::kw_only(),
           py::arg("threads") = py::none())
      .def("_best_of_build_seconds", &PyEvaluator::best_of_build_seconds, py::arg("width"))
      .def("partition", &PyEvaluator::partition, py::arg("cards"), py::arg("hands") = 4,
           py::arg("objective") = "lexicographic", py::arg("min_category") = py::none(),
           py::arg("opponents") = 3)
      .def("partition_batch", &PyEvaluator::partition_batch, py::arg("cards"), py::arg("hands") = 4,
           py::arg("objective") = "lexicographic", py::arg("min_category") = py::none(),
           py::arg("opponents") = 3, py::kw_only(), py::arg("threads") = py::none())
      .def_property_readonly("classes", &PyEvaluator::classes)
      .def_property_readonly("slots", &PyEvaluator::slots)
      .def_property_readonly("pack_size", &PyEvaluator::pack_size);

  bind_showdown_and_odds(m);
  // ---- SIMD level of the batch kernels (kernels.hpp) ----
  m.def("simd_level", [] { return std::string(prial::simd_level_name(prial::simd_level())); },
        "Instruction-set level of the batch kernels in use: 'scalar', 'avx2' or 'avx512'.");
  m.def("supported_simd_level",
        [] { return std::string(prial::simd_level_name(prial::supported_simd_level())); },
        "Highest instruction-set level this CPU supports.");
  m.def("_set_simd_level", &prial::set_simd_level, py::arg("level"),
        "Forces the batch-kernel level (tests and benchmarks only; process-wide).");

  m.attr("OPPONENT_MODEL_DEALS") = prial::kModelDeals;

  m.def("parse_cards", [](const py::str& text) {
    return card_list(prial::parse_cards(utf8_of(text)));
  }, py::arg("text"));
  // Text columns (prial score): see parse_text_column above.
  m.def("_parse_text_column", &parse_text_column, py::arg("validity"), py::arg("offsets"), py::arg("data"),
        py::kw_only(), py::arg("large_offsets"), py::arg("offset"), py::arg("rows"), py::arg("width"),
        py::arg("pack_size"), py::arg("threads") = py::none());
  m.def("_text_hand_problem", [](const std::string& text, std::size_t width, int pack_size) {
    return prial::text_hand_problem(text, width, pack_size);
  }, py::arg("text"), py::arg("width"), py::arg("pack_size"));
  m.def("format_cards", [](const py::handle& cards) {
    const std::vector<prial::Card> c = cards_from(cards);
    return prial::format_cards(c.data(), c.size());
  }, py::arg("cards"));
}
