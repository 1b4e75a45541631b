// pybind11 bindings: translation only.  Python values and numpy arrays in,
// Python values and numpy arrays out; every rule lives in cpp/src.  This
// file makes the module; each bound concept is in a register_*.cpp.
#include <pybind11/pybind11.h>

#include <exception>

#include "prial/cancel.hpp"
#include "prial/cards.hpp"
#include "prial/showdown.hpp"
#include "register.hpp"

namespace py = pybind11;

#define PRIAL_STRINGIFY(x) #x
#define PRIAL_MACRO_STRINGIFY(x) PRIAL_STRINGIFY(x)

namespace {

// prial.InvalidHandError and InvalidShowdownError are defined in Python
// (prial/errors.py) so Python code raises the same classes; C++ errors
// arrive with their row and field attached.
void raise_invalid(const char* type_name, const prial::InvalidHand& e) {
  py::object type = py::module_::import("prial.errors").attr(type_name);
  py::object row = e.row() >= 0 ? py::object(py::int_(e.row())) : py::object(py::none());
  py::object field = e.field().empty() ? py::object(py::none()) : py::object(py::str(e.field()));
  py::object instance = type(e.what(), py::arg("row") = row, py::arg("field") = field);
  PyErr_SetObject(type.ptr(), instance.ptr());
}

// prial.CancelledError, defined in Python (prial/errors.py) like the above.
void raise_cancelled(const prial::Cancelled& e) {
  py::object type = py::module_::import("prial.errors").attr("CancelledError");
  PyErr_SetString(type.ptr(), e.what());
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "prial native core (internal: use the prial package)";
  m.attr("__version__") = PRIAL_MACRO_STRINGIFY(PRIAL_VERSION);

  // Every docstring starts with its CPython text signature
  // ("name(args)\n--\n\n"), from which inspect.signature() reads the
  // parameters; pybind11's own signature lines would hide it.
  py::options options;
  options.disable_function_signatures();

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const prial::InvalidShowdown& e) {
      raise_invalid("InvalidShowdownError", e);
    } catch (const prial::InvalidHand& e) {
      raise_invalid("InvalidHandError", e);
    } catch (const prial::Cancelled& e) {
      raise_cancelled(e);
    }
  });

  prial::bindings::register_cancel(m);
  prial::bindings::register_cards(m);
  prial::bindings::register_rules(m);
  prial::bindings::register_evaluator(m);
  prial::bindings::register_kernels(m);
  prial::bindings::register_records(m);
  prial::bindings::register_play(m);
  prial::bindings::register_columns(m);
  prial::bindings::register_service(m);
  prial::bindings::register_table(m);
}
