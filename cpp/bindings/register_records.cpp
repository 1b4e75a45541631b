// The record types of prial._core (records.hpp): Award, SeatHand and
// ShowdownOutcome, built with the CPython type API.
#include "convert.hpp"  // Python.h first: structmember.h needs it
#include "records.hpp"
#include "register.hpp"

#include <structmember.h>

#include <iterator>
#include <string>

namespace prial::bindings {
namespace {

RecordTypes types;

Py_ssize_t field_count(PyObject* self) {
  return (Py_TYPE(self)->tp_basicsize - static_cast<Py_ssize_t>(offsetof(Record, fields))) /
         static_cast<Py_ssize_t>(sizeof(PyObject*));
}

int record_traverse(PyObject* self, visitproc visit, void* arg) {
  PyObject** fields = fields_of(self);
  for (Py_ssize_t i = 0; i < field_count(self); ++i) Py_VISIT(fields[i]);
  Py_VISIT(Py_TYPE(self));  // a heap type: its instances reference it
  return 0;
}

int record_clear(PyObject* self) {
  PyObject** fields = fields_of(self);
  for (Py_ssize_t i = 0; i < field_count(self); ++i) Py_CLEAR(fields[i]);
  return 0;
}

void record_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  record_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

// "Award(winners=[0], reason='...', decided_by='hand')".
PyObject* record_repr(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  const std::string name(type->tp_name);
  std::string text = name.substr(name.rfind('.') + 1) + "(";
  PyObject** fields = fields_of(self);
  for (Py_ssize_t i = 0; i < field_count(self); ++i) {
    PyObject* repr = PyObject_Repr(fields[i]);
    if (repr == nullptr) return nullptr;
    const char* utf8 = PyUnicode_AsUTF8(repr);
    if (utf8 == nullptr) {
      Py_DECREF(repr);
      return nullptr;
    }
    text += std::string(i ? ", " : "") + type->tp_members[i].name + "=" + utf8;
    Py_DECREF(repr);
  }
  text += ")";
  return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
}

// A record type named `name` (in prial._core) with one read-only attribute
// per member (name and docstring; the members array must live as long as
// the module: static).
PyTypeObject* make_record_type(py::module_& m, const char* qualified_name, const char* doc,
                               PyMemberDef* members, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    members[i].type = T_OBJECT_EX;
    members[i].offset = static_cast<Py_ssize_t>(offsetof(Record, fields) + i * sizeof(PyObject*));
    members[i].flags = READONLY;
  }
  static_assert(offsetof(Record, fields) % sizeof(PyObject*) == 0, "fields are pointer-aligned");
  PyType_Slot slots[] = {
      {Py_tp_doc, const_cast<char*>(doc)},
      {Py_tp_members, members},
      {Py_tp_dealloc, reinterpret_cast<void*>(record_dealloc)},
      {Py_tp_traverse, reinterpret_cast<void*>(record_traverse)},
      {Py_tp_clear, reinterpret_cast<void*>(record_clear)},
      {Py_tp_repr, reinterpret_cast<void*>(record_repr)},
      {0, nullptr},
  };
  PyType_Spec spec = {qualified_name,
                      static_cast<int>(offsetof(Record, fields) + count * sizeof(PyObject*)), 0,
                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION, slots};
  PyObject* type = PyType_FromSpec(&spec);
  if (type == nullptr) throw py::error_already_set();
  const std::string name(qualified_name);
  m.add_object(name.substr(name.rfind('.') + 1).c_str(), type);  // the module keeps the reference
  return reinterpret_cast<PyTypeObject*>(type);
}

PyMemberDef award_members[] = {
    {"winners", 0, 0, 0, "Seat indices of the winners, in seat order."},
    {"reason", 0, 0, 0, "Why, in words."},
    {"decided_by", 0, 0, 0, "'hand', 'discard', 'seer_loses_ties', 'shared' or 'tie_to_new_pot_winner'."},
    {nullptr, 0, 0, 0, nullptr},
};
PyMemberDef seat_hand_members[] = {
    {"cards", 0, 0, 0, "The cards as given (index bytes)."},
    {"strength", 0, 0, 0, "Strength of the three kept."},
    {"key", 0, 0, 0, "The key hands compare by (three cards: the strength)."},
    {"category", 0, 0, 0, "The prial.Category of the three kept."},
    {"description", 0, 0, 0, "The three kept in words."},
    {"kept", 0, 0, 0, "The three kept (index bytes; three cards: as given)."},
    {"discarded", 0, 0, 0, "The discards, higher first (index bytes)."},
    {nullptr, 0, 0, 0, nullptr},
};
PyMemberDef outcome_members[] = {
    {"see", 0, 0, 0, "True for a see, False for an agreed showdown."},
    {"winners", 0, 0, 0, "Seat indices of the pot's winners."},
    {"reason", 0, 0, 0, "Why they win, in words."},
    {"decided_by", 0, 0, 0, "What decided it (as Award.decided_by)."},
    {"hands", 0, 0, 0, "Every player's SeatHand, in seat order."},
    {"pot", 0, 0, 0, "The new pot: pot plus every contender's stake."},
    {"payouts", 0, 0, 0, "Chips each seat receives, in seat order; None when no chips were given."},
    {"cover", 0, 0, 0, "The old pot's Award when a coverer was given, else None."},
    {nullptr, 0, 0, 0, nullptr},
};

}  // namespace

const RecordTypes& record_types() { return types; }

void register_records(py::module_& m) {
  types.award = make_record_type(m, "prial._core.Award", "Who takes a pot and why (decide_showdown).",
                                 award_members, std::size(award_members) - 1);
  types.seat_hand = make_record_type(m, "prial._core.SeatHand",
                                     "One player's hand at a showdown, valued (decide_showdown).",
                                     seat_hand_members, std::size(seat_hand_members) - 1);
  types.outcome = make_record_type(m, "prial._core.ShowdownOutcome", "One showdown decided (decide_showdown).",
                                   outcome_members, std::size(outcome_members) - 1);
}

}  // namespace prial::bindings
