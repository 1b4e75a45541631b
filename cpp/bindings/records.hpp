// Records: heap types whose instances hold a fixed row of Python objects,
// read as read-only attributes (member descriptors) and made with no
// Python call.  The results of decide_showdown (ShowdownOutcome, SeatHand,
// Award) are records: a showdown makes one per hand and one or two more,
// and prial.showdown reads each field once, so both must cost what a tuple
// does (a py::class_ instance costs several times that to make and to
// read).  The types are made by register_records (register_records.cpp).
#pragma once

#include <array>
#include <cstddef>

#include "convert.hpp"

namespace prial::bindings {

struct Record {
  PyObject_HEAD
  PyObject* fields[1];  // as many as the type has (tp_basicsize)
};

inline PyObject** fields_of(PyObject* self) { return reinterpret_cast<Record*>(self)->fields; }

// The record types of prial._core, set once the module is made.
struct RecordTypes {
  PyTypeObject* award = nullptr;      // Award: who takes a pot and why
  PyTypeObject* seat_hand = nullptr;  // SeatHand: one player's hand, valued
  PyTypeObject* outcome = nullptr;    // ShowdownOutcome: one showdown decided
};
const RecordTypes& record_types();

// A new record of `type` holding `fields` (owned; as many as the type has).
template <std::size_t N>
py::object make_record(PyTypeObject* type, std::array<py::object, N>&& fields) {
  PyObject* obj = type->tp_alloc(type, 0);
  if (obj == nullptr) throw py::error_already_set();
  PyObject** slots = fields_of(obj);
  for (std::size_t i = 0; i < N; ++i) slots[i] = fields[i].release().ptr();
  return py::reinterpret_steal<py::object>(obj);
}

}  // namespace prial::bindings
