// pybind11 bindings: translation only.  Python values and numpy arrays in,
// Python values and numpy arrays out; every rule lives in cpp/src.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "prial/cards.hpp"
#include "prial/evaluator.hpp"
#include "prial/kernels.hpp"
#include "prial/rules.hpp"

namespace py = pybind11;

namespace {

// Result types are plain Python NamedTuples defined in prial/_types.py and
// registered here once at import, so results are built without a Python call.
struct ResultTypes {
  py::object hand_value;  // prial.HandValue
  py::list categories;    // prial.Category members by value
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

int thread_count(const py::object& threads) {
  if (threads.is_none()) return 0;  // all cores
  const int n = int_argument(threads, "threads");
  if (n < 1) throw prial::InvalidHand("threads must be at least 1, got " + std::to_string(n));
  return n;
}

// The evaluator as Python sees it: the C++ Evaluator plus a cache of the
// description strings, made on first use.
class PyEvaluator {
 public:
  explicit PyEvaluator(const prial::RulesConfig& rules)
      : ev_(rules), descriptions_(ev_.table().slots()) {}

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
      py::gil_scoped_release release;
      bad = ev_.evaluate_batch(in, rows, dst, n_threads);
    }
    if (bad != prial::kNoBadRow) {
      throw prial::InvalidHand(ev_.explain_row(in, bad, 3), static_cast<long long>(bad));
    }
    return out;
  }

  int classes() const { return ev_.table().classes(); }
  std::size_t slots() const { return ev_.table().slots(); }
  int pack_size() const { return ev_.table().pack_size(); }

 private:
  py::object description(std::uint32_t slot) {
    py::object& d = descriptions_[slot];
    if (!d) d = py::str(prial::describe(ev_.table().shape(slot), ev_.table().wilds(slot)));
    return d;
  }

  prial::Evaluator ev_;
  std::vector<py::object> descriptions_;
};

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "prial native core (internal: use the prial package)";

  // prial.InvalidHandError is defined in Python (prial/_errors.py) so Python
  // code raises the same class; C++ errors arrive with their row attached.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const prial::InvalidHand& e) {
      py::object type = py::module_::import("prial._errors").attr("InvalidHandError");
      py::object row = e.row() >= 0 ? py::object(py::int_(e.row())) : py::object(py::none());
      py::object instance = type(e.what(), py::arg("row") = row);
      PyErr_SetObject(type.ptr(), instance.ptr());
    }
  });

  m.def("_register_types", [](py::object hand_value, py::list categories) {
    result_types().hand_value = std::move(hand_value);
    result_types().categories = std::move(categories);
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
      .def_property_readonly("classes", &PyEvaluator::classes)
      .def_property_readonly("slots", &PyEvaluator::slots)
      .def_property_readonly("pack_size", &PyEvaluator::pack_size);

  // ---- SIMD level of the batch kernels (kernels.hpp) ----
  m.def("simd_level", [] { return std::string(prial::simd_level_name(prial::simd_level())); },
        "Instruction-set level of the batch kernels in use: 'scalar', 'avx2' or 'avx512'.");
  m.def("supported_simd_level",
        [] { return std::string(prial::simd_level_name(prial::supported_simd_level())); },
        "Highest instruction-set level this CPU supports.");
  m.def("_set_simd_level", &prial::set_simd_level, py::arg("level"),
        "Forces the batch-kernel level (tests and benchmarks only; process-wide).");

  m.def("parse_cards", [](const py::str& text) {
    return card_list(prial::parse_cards(utf8_of(text)));
  }, py::arg("text"));
  m.def("format_cards", [](const py::handle& cards) {
    const std::vector<prial::Card> c = cards_from(cards);
    return prial::format_cards(c.data(), c.size());
  }, py::arg("cards"));
}
