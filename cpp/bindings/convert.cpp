#include "convert.hpp"

#include <climits>
#include <cstdio>

namespace prial::bindings {

ResultTypes& result_types() {
  static ResultTypes* types = new ResultTypes();  // leaked: lives as long as the module
  return *types;
}

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
      throw InvalidHand("character " + std::to_string(i) + " of the card text is a lone surrogate (U+" + code +
                        "), not a card");
    }
  }
  throw InvalidHand("card text is not valid Unicode");
}

std::vector<Card> cards_from(const py::handle& value) {
  if (PyUnicode_Check(value.ptr())) return parse_cards(utf8_of(value));
  PyObject* seq = PySequence_Fast(value.ptr(), "");
  if (seq == nullptr) {
    PyErr_Clear();
    throw InvalidHand("cards must be text such as \"3s 2h Ah\" or a sequence of card indices, got " +
                      std::string(Py_TYPE(value.ptr())->tp_name));
  }
  py::object owner = py::reinterpret_steal<py::object>(seq);
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  std::vector<Card> cards(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    if (PyBool_Check(item) || !PyIndex_Check(item)) {
      throw InvalidHand("card " + std::to_string(i + 1) + ": expected a card index, got " +
                        std::string(Py_TYPE(item)->tp_name));
    }
    const Py_ssize_t v = PyNumber_AsSsize_t(item, nullptr);  // clips huge values, never fails
    if (v < 0 || v >= kMaxPack) {
      throw InvalidHand("card " + std::to_string(i + 1) + ": card index " + py::str(item).cast<std::string>() +
                        " is out of range (0..54)");
    }
    cards[static_cast<std::size_t>(i)] = static_cast<Card>(v);
  }
  return cards;
}

py::array hand_array(const py::object& value, std::size_t width, const char* name) {
  const std::string expected = std::string(name) + " must be a C-contiguous numpy uint8 array of shape (N, " +
                               std::to_string(width) + ")";
  if (!py::isinstance<py::array>(value)) {
    throw InvalidHand(expected + ", got " + std::string(Py_TYPE(value.ptr())->tp_name));
  }
  auto a = py::reinterpret_borrow<py::array>(value);
  if (a.dtype().kind() != 'u' || a.dtype().itemsize() != 1) {
    throw InvalidHand(expected + ", got dtype " + py::str(a.dtype()).cast<std::string>() +
                      " (check the values are card indices, then use a.astype(np.uint8))");
  }
  if (a.ndim() != 2 || static_cast<std::size_t>(a.shape(1)) != width) {
    std::string shape = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(a.shape(d));
    throw InvalidHand(expected + ", got shape " + shape + (a.ndim() == 1 ? ",)" : ")"));
  }
  if (!(a.flags() & py::array::c_style)) {
    throw InvalidHand(expected + ", got a non-contiguous view (use np.ascontiguousarray(a))");
  }
  return a;
}

py::array hand_array_of_widths(const py::object& value, std::initializer_list<std::size_t> widths,
                               const char* name, const char* expected) {
  if (py::isinstance<py::array>(value)) {
    auto a = py::reinterpret_borrow<py::array>(value);
    if (a.ndim() == 2) {
      for (std::size_t w : widths) {
        if (static_cast<std::size_t>(a.shape(1)) == w) return hand_array(value, w, name);
      }
      throw InvalidHand(std::string(name) + " must have " + expected + " cards a row, got " +
                        std::to_string(a.shape(1)));
    }
  }
  return hand_array(value, *widths.begin(), name);  // explains the dtype / shape problem
}

std::size_t hand_width(const py::object& value, const char* name) {
  if (!py::isinstance<py::array>(value)) return 3;
  const auto a = py::reinterpret_borrow<py::array>(value);
  if (a.ndim() != 2) return 3;
  if (a.shape(1) < 3 || a.shape(1) > 5) {
    throw InvalidHand(std::string(name) + " must have 3, 4 or 5 cards a row, got shape (" +
                      std::to_string(a.shape(0)) + ", " + std::to_string(a.shape(1)) + ")");
  }
  return static_cast<std::size_t>(a.shape(1));
}

int int_argument(const py::handle& value, const char* name) {
  if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr())) {
    throw InvalidHand(std::string(name) + " must be an integer, got " + std::string(Py_TYPE(value.ptr())->tp_name));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || v < INT_MIN || v > INT_MAX) {
    throw InvalidHand(std::string(name) + " is out of range, got " + py::str(value).cast<std::string>());
  }
  return static_cast<int>(v);
}

int thread_count(const py::object& threads) {
  if (threads.is_none()) return 0;  // all cores
  const int n = int_argument(threads, "threads");
  if (n < 1) throw InvalidHand("threads must be at least 1, got " + std::to_string(n));
  return n;
}

namespace {

// Attribute names made once (interned), not per lookup.
struct AttributeNames {
  py::str id{"id"}, cards{"cards"}, blind{"blind"}, stake{"stake"}, text{"text"}, indices{"indices"};
};
const AttributeNames& names() {
  static const AttributeNames* made = new AttributeNames();  // leaked: lives as long as the module
  return *made;
}

py::object attribute(const py::handle& owner, const py::str& name) {
  PyObject* value = PyObject_GetAttr(owner.ptr(), name.ptr());
  if (value == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(value);
}

// A prial.v1.Cards message's text, else its index bytes; anything else as it is.
py::object message_cards(py::object cards) {
  if (PyUnicode_Check(cards.ptr()) || PySequence_Check(cards.ptr())) return cards;
  PyObject* text = PyObject_GetAttr(cards.ptr(), names().text.ptr());
  if (text == nullptr) {  // not a Cards message: cards_from explains what it is
    PyErr_Clear();
    return cards;
  }
  py::object owned = py::reinterpret_steal<py::object>(text);
  return !PyUnicode_Check(text) || PyUnicode_GET_LENGTH(text) > 0 ? owned : attribute(cards, names().indices);
}

}  // namespace

ShowdownCall showdown_call(const py::sequence& players, const std::optional<std::string>& seer,
                           const std::optional<std::string>& coverer, std::size_t cards_per_hand,
                           std::uint64_t pot, std::uint64_t old_pot) {
  ShowdownCall call;
  call.seer = seer;
  call.coverer = coverer;
  call.cards_per_hand = cards_per_hand;
  call.pot = pot;
  call.old_pot = old_pot;
  call.players.reserve(players.size());
  for (const auto& item : players) {
    // Owned: a message container makes a new object per item.
    const py::object player = item;
    const auto seat_index = static_cast<long long>(call.players.size());
    Seat& seat = call.players.emplace_back();
    seat.id = attribute(player, names().id).cast<std::string>();
    try {
      seat.cards = cards_from(message_cards(attribute(player, names().cards)));
    } catch (const InvalidHand& e) {
      throw InvalidHand("player " + quoted(seat.id) + ": " + e.what(), seat_index, kPlayersField);
    }
    seat.blind = attribute(player, names().blind).cast<bool>();
    seat.stake = attribute(player, names().stake).cast<std::uint64_t>();
  }
  return call;
}

}  // namespace prial::bindings
