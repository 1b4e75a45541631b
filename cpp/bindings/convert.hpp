// Conversions between Python values and the core's types, shared by every
// cpp/bindings/register_*.cpp.  Translation only: every rule lives in
// cpp/src.  The helpers on the hot single-hand paths are inline here.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
// In every binding file, through this header: a file binding std::optional
// or std::vector arguments without it would convert them differently (an
// ODR violation that crashed the LTO build).
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "prial/cards.hpp"
#include "prial/partition.hpp"
#include "prial/showdown.hpp"

namespace prial::bindings {

namespace py = pybind11;

// Result types are plain Python NamedTuples defined in prial/_types.py and
// prial/_bestof_types.py, registered once at import
// (register_result_types), so results are built without a Python call.
struct ResultTypes {
  py::object hand_value;  // prial.HandValue
  py::list categories;    // prial.Category members by value
  py::object best_hand;   // prial.BestHand
  py::object split;       // prial.Split
};
ResultTypes& result_types();

// The registered prial.Category member of `c`.
inline py::object category_object(Category c) {
  return result_types().categories[static_cast<std::size_t>(c)];
}

// Builds an instance of a tuple subclass (a NamedTuple) from owned items,
// as tuple.__new__ does, without the cost of calling the class.
inline py::object make_named_tuple(const py::object& type, std::initializer_list<py::object> items) {
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
std::string_view utf8_of(const py::handle& text);

// Cards from a Python value: text ("3s 2h Ah") or a sequence of indices.
std::vector<Card> cards_from(const py::handle& value);

// The common evaluate() argument, an exact list or tuple of three in-range
// ints, read without the heap allocation of cards_from; false sends
// anything else (and every error) through cards_from.
inline bool three_indices(const py::handle& value, Card (&cards)[3]) {
  PyObject* obj = value.ptr();
  const bool is_list = PyList_CheckExact(obj);
  if (!is_list && !PyTuple_CheckExact(obj)) return false;
  if ((is_list ? PyList_GET_SIZE(obj) : PyTuple_GET_SIZE(obj)) != 3) return false;
  for (Py_ssize_t i = 0; i < 3; ++i) {
    PyObject* item = is_list ? PyList_GET_ITEM(obj, i) : PyTuple_GET_ITEM(obj, i);
    if (!PyLong_CheckExact(item)) return false;
    const long v = PyLong_AsLong(item);
    if (v < 0 || v >= kMaxPack) {  // also -1 with an overflow error set
      PyErr_Clear();
      return false;
    }
    cards[i] = static_cast<Card>(v);
  }
  return true;
}

// Card indices as a list of ints.
inline py::list card_list(const Card* cards, std::size_t count) {
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(count));
  if (out == nullptr) throw py::error_already_set();
  for (std::size_t i = 0; i < count; ++i) {
    PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), PyLong_FromLong(cards[i]));  // small ints: cached, never fail
  }
  return py::reinterpret_steal<py::list>(out);
}
inline py::list card_list(const std::vector<Card>& cards) { return card_list(cards.data(), cards.size()); }

// Card indices as bytes.
inline py::bytes card_bytes(const std::vector<Card>& cards) {
  return {reinterpret_cast<const char*>(cards.data()), cards.size()};
}

// A uint8 array of shape (N, width), C-contiguous, used in place.
py::array hand_array(const py::object& value, std::size_t width, const char* name);

// The width of a batch whose rows may hold any of `widths` cards; then the
// usual hand_array checks.
py::array hand_array_of_widths(const py::object& value, std::initializer_list<std::size_t> widths,
                               const char* name, const char* expected);

// Width of a (N, width) hand array: 3, 4 or 5.  For anything that is not a
// two-dimensional array, 3 (hand_array then explains what is wrong).
std::size_t hand_width(const py::object& value, const char* name);

// A small integer argument (threads, hands, opponents): a Python int that
// fits a C int, else InvalidHand naming the argument.  pybind11's own int
// conversion raises RuntimeError/TypeError for huge or non-integer values
// (found by the fuzz harnesses: threads=2**40, gRPC opponents=2**32-1).
int int_argument(const py::handle& value, const char* name);

// threads=None (all cores: 0) or a count of at least 1.
int thread_count(const py::object& threads);

// An Objective member, or its name (callers pass the option strings);
// register_rules.cpp, beside the names.
Objective objective_from(const py::handle& value);

// One showdown's players and options as the core takes them.  Players are
// read by attribute, so both a prial.Player and a prial.v1.Player message
// serve as they are (no per-call Python copy): id, cards, blind, stake.
// Cards are text or indices, or a prial.v1.Cards message (its text, else
// its index bytes).  An error in a player's cards is located at its seat.
ShowdownCall showdown_call(const py::sequence& players, const std::optional<std::string>& seer,
                           const std::optional<std::string>& coverer, std::size_t cards_per_hand,
                           std::uint64_t pot, std::uint64_t old_pot);

}  // namespace prial::bindings
