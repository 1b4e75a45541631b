// Cancellation (cancel.hpp): prial.CancelFlag, which the long native calls
// take as their keyword-only `cancel` argument.  The Cancelled exception is
// translated to prial.CancelledError in module.cpp.
#include "convert.hpp"
#include "prial/cancel.hpp"
#include "register.hpp"

namespace prial::bindings {

void register_cancel(py::module_& m) {
  py::class_<CancelFlag>(m, "CancelFlag",
                         "A flag that stops the native work it is passed to (cancel=flag): call cancel() from "
                         "another thread and the call raises prial.CancelledError within a few milliseconds.")
      .def(py::init<>(), "__init__(self)\n--\n\nA flag not yet cancelled.")
      // No GIL needed to set an atomic, but the call is too short to release it.
      .def("cancel", &CancelFlag::cancel,
           "cancel(self)\n--\n\n"
           "Stops the work watching this flag (from any thread); the flag stays cancelled.")
      .def_property_readonly("cancelled", &CancelFlag::cancelled, "True once cancel() was called.")
      .def("__repr__", [](const CancelFlag& flag) {
        return std::string(flag.cancelled() ? "CancelFlag(cancelled=True)" : "CancelFlag(cancelled=False)");
      });
}

}  // namespace prial::bindings
