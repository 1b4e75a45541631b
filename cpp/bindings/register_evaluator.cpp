// The Evaluator of one ruleset (the table's properties) and its operations
// (single hands and batches, best of four / five, partitioning), and the
// result types they make.  Rulesets are register_rules.cpp's, the kernels'
// level register_kernels.cpp's.
#include <atomic>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "gil.hpp"
#include "py_evaluator.hpp"
#include "register.hpp"

namespace prial::bindings {
namespace {

// None -> -1; a Category (an IntEnum) or its code 0..5.  Names are the
// Python layer's to parse.
int min_category_from(const py::handle& value) {
  if (value.is_none()) return -1;
  if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
    int overflow = 0;
    const long v = PyLong_AsLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0 && v >= 0 && v < kCategories) return static_cast<int>(v);
  }
  throw InvalidHand("min_category must be a prial.Category, got " + py::repr(value).cast<std::string>());
}

// The bits of a double: a cache key that NaN cannot confuse.
std::uint64_t bits_of(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

PyEvaluator::PyEvaluator(const RulesConfig& rules)
    : ev_(rules), best_of_(prial::best_of_table(rules)), descriptions_(ev_.table().slots()) {
  for (const Category c : categories_by_strength(ev_.table())) category_codes_.push_back(static_cast<std::uint8_t>(c));
  count(sizeof(*this) + descriptions_.capacity() * sizeof(py::object) + category_codes_.capacity());
}

namespace {
std::atomic<std::size_t> g_evaluator_bytes{0};  // PyEvaluator::live_bytes()
}  // namespace

PyEvaluator::~PyEvaluator() { g_evaluator_bytes -= own_bytes_; }

void PyEvaluator::count(std::size_t bytes) noexcept {
  own_bytes_ += bytes;
  g_evaluator_bytes += bytes;
}

std::size_t PyEvaluator::live_bytes() noexcept { return g_evaluator_bytes; }

py::object PyEvaluator::evaluate(const py::handle& hand) {
  Card fixed[3];
  std::vector<Card> parsed;
  const bool quick = three_indices(hand, fixed);
  if (!quick) parsed = cards_from(hand);
  const Card* cards = quick ? fixed : parsed.data();
  const std::size_t count = quick ? 3 : parsed.size();
  const std::uint32_t slot = ev_.slot(cards, count);
  return make_named_tuple(result_types().hand_value, {py::int_(ev_.table().strength(slot)), category(slot),
                                                      card_list(cards, count), description(slot)});
}

py::array_t<Strength> PyEvaluator::evaluate_batch(const py::object& hands, const py::object& threads,
                                                  const CancelFlag* cancel) {
  const py::array a = hand_array(hands, 3, "hands");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  const int n_threads = thread_count(threads);
  py::array_t<Strength> out(static_cast<py::ssize_t>(rows));
  const auto* in = static_cast<const Card*>(a.data());
  Strength* dst = out.mutable_data();
  const std::size_t bad =
      without_gil([&] { return ev_.evaluate_batch(in, rows, dst, n_threads, cancel); }, worth_releasing_gil(rows));
  if (bad != kNoBadRow) throw InvalidHand(ev_.explain_row(in, bad, 3), static_cast<long long>(bad));
  return out;
}

py::object PyEvaluator::best_of(const py::handle& hand) {
  const std::vector<Card> cards = cards_from(hand);
  const BestChoice c = best_of_->choose(cards.data(), cards.size());
  return make_named_tuple(result_types().best_hand,
                          {card_list(c.kept.data(), c.kept.size()), card_list(c.discarded.data(), static_cast<std::size_t>(c.discards)),
                           py::int_(strength_of_key(c.key)), py::int_(c.key), category(c.slot),
                           description(c.slot)});
}

py::array_t<BestKey> PyEvaluator::best_of_batch(const py::object& hands, const py::object& threads,
                                                const CancelFlag* cancel) {
  const py::array a = hand_array_of_widths(hands, {3, 4, 5}, "hands", "3, 4 or 5");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  const auto width = static_cast<std::size_t>(a.shape(1));
  const int n_threads = thread_count(threads);
  py::array_t<BestKey> out(static_cast<py::ssize_t>(rows));
  const auto* in = static_cast<const Card*>(a.data());
  BestKey* dst = out.mutable_data();
  // Released at every size: four and five cards may build their key table first.
  const std::size_t bad = without_gil([&] { return best_of_->key_batch(in, rows, width, dst, n_threads, cancel); });
  if (bad != kNoBadRow) throw InvalidHand(ev_.explain_row(in, bad, width), static_cast<long long>(bad));
  return out;
}

py::object PyEvaluator::partition(const py::handle& hand, const py::object& hands, const py::object& objective,
                                  const py::object& min_category, const py::object& opponents,
                                  double crash_value, const py::object& four_order) {
  const std::vector<Card> cards = cards_from(hand);
  const auto p = partitioner(static_cast<int>(cards.size()), int_argument(hands, "hands"), objective, min_category,
                             int_argument(opponents, "opponents"), crash_value, four_order);
  const Split s = p->split(cards.data(), cards.size());
  py::list hand_lists, strengths, categories, descriptions;
  for (int h = 0; h < s.formed; ++h) {
    hand_lists.append(card_list(s.hands[h].data(), s.hands[h].size()));
    strengths.append(py::int_(s.strengths[h]));
    categories.append(category(s.slots[h]));
    descriptions.append(description(s.slots[h]));
  }
  const py::object points =
      s.expected_points >= 0 ? py::object(py::float_(s.expected_points)) : py::object(py::none());
  return make_named_tuple(result_types().split,
                          {hand_lists, card_list(s.discards.data(), static_cast<std::size_t>(s.discard_count)),
                           strengths, categories, descriptions, points, py::int_(s.candidates)});
}

py::tuple PyEvaluator::partition_batch(const py::object& deals, const py::object& hands_arg,
                                       const py::object& objective, const py::object& min_category,
                                       const py::object& opponents, double crash_value,
                                       const py::object& four_order, const py::object& threads,
                                       const CancelFlag* cancel) {
  const int hands = int_argument(hands_arg, "hands");
  const py::array a = hand_array_of_widths(deals, {13, 6, 7, 8, 9, 10, 11, 12, 14, 15}, "cards", "6 to 15");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  const int n_threads = thread_count(threads);
  throw_if_cancelled(cancel);  // before a first expected-points call builds the opponent model
  const auto p = partitioner(static_cast<int>(a.shape(1)), hands, objective, min_category,
                             int_argument(opponents, "opponents"), crash_value, four_order);
  const auto k = static_cast<py::ssize_t>(hands);
  py::array_t<Card> out_hands({static_cast<py::ssize_t>(rows), k, py::ssize_t{3}});
  py::array_t<Strength> out_strengths({static_cast<py::ssize_t>(rows), k});
  const auto* in = static_cast<const Card*>(a.data());
  Card* dst_hands = out_hands.mutable_data();
  Strength* dst_strengths = out_strengths.mutable_data();
  // `p` holds the Partitioner while another thread may drop it from the cache.
  const std::size_t bad =
      without_gil([&] { return p->split_batch(in, rows, dst_hands, dst_strengths, n_threads, cancel); });
  if (bad != kNoBadRow) {
    throw InvalidHand(ev_.explain_row(in, bad, static_cast<std::size_t>(a.shape(1))), static_cast<long long>(bad));
  }
  return py::make_tuple(out_hands, out_strengths);
}

py::array PyEvaluator::categories() {
  if (!categories_) {
    py::array_t<std::uint8_t> out(static_cast<py::ssize_t>(category_codes_.size()));
    std::copy(category_codes_.begin(), category_codes_.end(), out.mutable_data());
    out.attr("setflags")(py::arg("write") = false);  // shared by every caller: read-only
    categories_ = std::move(out);
  }
  return py::reinterpret_borrow<py::array>(categories_);
}

py::list PyEvaluator::category_order() const {
  py::list out;
  for (const Category c : prial::category_order(ev_.table())) out.append(category_object(c));
  return out;
}

std::shared_ptr<const Partitioner> PyEvaluator::partitioner(int cards, int hands, const py::object& objective,
                                                           const py::object& min_category, int opponents,
                                                           double crash_value, const py::object& four_order) {
  PartitionOptions o;
  o.cards = cards;
  o.hands = hands;
  o.objective = objective_from(objective);
  o.min_category = min_category_from(min_category);
  o.opponents = opponents;
  o.crash_value = crash_value;
  // Any other object is refused by its repr, as a name it is not.
  o.four_order = four_order_from(py::str(PyUnicode_Check(four_order.ptr()) ? four_order : py::repr(four_order)));
  if (o.objective == Objective::Lexicographic) {  // all three unused: one cache entry
    o.opponents = 0;
    o.crash_value = 0;
    o.four_order = FourOrder::Prial;
  }
  const auto key = std::make_tuple(o.cards, o.hands, static_cast<int>(o.objective), o.min_category, o.opponents,
                                   bits_of(o.crash_value), static_cast<int>(o.four_order));
  auto it = partitioners_.find(key);
  if (it != partitioners_.end()) return it->second;
  // The first expected-points use builds the opponent model (a fraction of a second).
  std::shared_ptr<const Partitioner> made =
      without_gil([&] { return std::make_shared<const Partitioner>(three_card_table(ev_.rules()), o); });
  // Another thread may have added it while this one built it (the GIL was released).
  it = partitioners_.find(key);
  if (it != partitioners_.end()) return it->second;
  // The last key goes: expected points (the objective that takes crash_value) sort last.
  if (partitioners_.size() >= kKeptPartitioners) partitioners_.erase(std::prev(partitioners_.end()));
  return partitioners_.emplace(key, std::move(made)).first->second;
}

void register_evaluator(py::module_& m) {
  m.def("register_result_types",
        [](py::object hand_value, py::list categories, py::object best_hand, py::object split) {
          ResultTypes& types = result_types();
          types.hand_value = std::move(hand_value);
          types.categories = std::move(categories);
          types.best_hand = std::move(best_hand);
          types.split = std::move(split);
        },
        py::arg("hand_value"), py::arg("categories"), py::arg("best_hand"), py::arg("split"),
        "register_result_types(hand_value, categories, best_hand, split)\n--\n\n"
        "Registers the Python result types once at import: prial.HandValue, the prial.Category "
        "members by value, prial.BestHand and prial.Split.");

  py::class_<PyEvaluator>(m, "Evaluator", "Evaluates hands under one ruleset (its tables are built once and shared).")
      .def(py::init<const RulesConfig&>(), py::arg("config"),
           "__init__(self, config)\n--\n\nThe evaluator of the ruleset `config` (a RulesConfig).")
      .def_property_readonly("classes", &PyEvaluator::classes, "Number of strength classes (strengths 1..classes).")
      .def_property_readonly("slots", &PyEvaluator::slots, "Number of three-card combinations of the pack.")
      .def_property_readonly("pack_size", &PyEvaluator::pack_size, "Cards in the pack: 52 plus the jokers.")
      .def_property_readonly(
          "table_bytes", [](const PyEvaluator& ev) { return ev.best_of_table().bytes(); },
          "Bytes of memory the ruleset's tables hold: the three-card table and the key and counting tables "
          "built so far (they grow as hand sizes are first used); shared by every evaluator of the ruleset.")
      .def_property_readonly("categories", &PyEvaluator::categories,
                             "Read-only uint8 array indexed by strength (length classes + 1): the Category code "
                             "of each strength class (index 0 unused, 0).")
      .def_property_readonly("category_order", &PyEvaluator::category_order,
                             "The six prial.Category members, strongest first in this ruleset (categories no "
                             "hand falls in last).");

  // The evaluator's operations are module functions taking it first, as
  // every other operation on an evaluator (register_play.cpp,
  // register_service.cpp) is: one form for all.
  m.def("evaluate", &PyEvaluator::evaluate, py::arg("evaluator"), py::arg("hand"),
        "evaluate(evaluator, hand)\n--\n\n"
        "The HandValue of three cards (text or indices, any order).");
  m.def("evaluate_batch", &PyEvaluator::evaluate_batch, py::arg("evaluator"), py::arg("hands"), py::kw_only(),
        py::arg("threads") = py::none(), py::arg("cancel") = py::none(),
        "evaluate_batch(evaluator, hands, *, threads=None, cancel=None)\n--\n\n"
        "Strengths (uint16) of a uint8 (N, 3) array of hands; InvalidHandError names the first bad row.  "
        "cancel: a CancelFlag; cancel() from another thread stops the work (CancelledError).");
  m.def("best_of", &PyEvaluator::best_of, py::arg("evaluator"), py::arg("cards"),
        "best_of(evaluator, cards)\n--\n\n"
        "The BestHand of 3, 4 or 5 cards: the three kept, the discards, strength and key.");
  m.def("best_of_batch", &PyEvaluator::best_of_batch, py::arg("evaluator"), py::arg("hands"), py::kw_only(),
        py::arg("threads") = py::none(), py::arg("cancel") = py::none(),
        "best_of_batch(evaluator, hands, *, threads=None, cancel=None)\n--\n\n"
        "Best-of keys (uint32) of a uint8 (N, 3), (N, 4) or (N, 5) array of hands.  cancel: a CancelFlag; "
        "cancel() from another thread stops the work (CancelledError).");
  m.def("partition", &PyEvaluator::partition, py::arg("evaluator"), py::arg("cards"), py::arg("hands") = 4,
        py::arg("objective") = "lexicographic", py::arg("min_category") = py::none(), py::arg("opponents") = 3,
        py::arg("crash_value") = 0.0, py::arg("four_order") = "prial",
        "partition(evaluator, cards, hands=4, objective='lexicographic', min_category=None, opponents=3, "
        "crash_value=0.0, four_order='prial')\n--\n\n"
        "The Split of 6 to 15 cards into `hands` three-card hands.  objective: an Objective or its name; "
        "min_category: None or a prial.Category; crash_value: points for a crash and four_order: one of "
        "FOUR_ORDERS, how the four-of-a-kind bonus ranks fours (expected_points, 13 cards into 4 hands or "
        "9 into 3).");
  m.def("partition_batch", &PyEvaluator::partition_batch, py::arg("evaluator"), py::arg("cards"),
        py::arg("hands") = 4, py::arg("objective") = "lexicographic", py::arg("min_category") = py::none(),
        py::arg("opponents") = 3, py::arg("crash_value") = 0.0, py::arg("four_order") = "prial", py::kw_only(),
        py::arg("threads") = py::none(), py::arg("cancel") = py::none(),
        "partition_batch(evaluator, cards, hands=4, objective='lexicographic', min_category=None, opponents=3, "
        "crash_value=0.0, four_order='prial', *, threads=None, cancel=None)\n--\n\n"
        "partition over a uint8 (N, cards) array: (hands uint8 (N, hands, 3), strengths uint16 (N, hands)); "
        "unformed hands are 255 and strength 0.  cancel: a CancelFlag; cancel() from another thread stops "
        "the work (CancelledError).");

  m.def("best_of_build_seconds",
        [](const PyEvaluator& ev, std::size_t width) { return ev.best_of_table().build_seconds(width); },
        py::arg("evaluator"), py::arg("width"),
        "best_of_build_seconds(evaluator, width)\n--\n\n"
        "Seconds the evaluator's best-of key table for `width` cards took to build (benchmarks).");

  m.def("live_table_bytes", [] { return prial::live_table_bytes() + PyEvaluator::live_bytes(); },
        "live_table_bytes()\n--\n\n"
        "Bytes held by every ruleset table alive in the process (three-card, best-of key and counting "
        "tables), whoever holds them, and by the evaluators' own caches: what prial.evaluator's cache of "
        "rulesets bounds.");

  m.attr("OPPONENT_MODEL_DEALS") = kModelDeals;
  m.attr("MAX_CRASH_VALUE") = static_cast<int>(kMaxCrashValue);
}

}  // namespace prial::bindings
