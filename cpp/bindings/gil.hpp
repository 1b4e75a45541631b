// The one way the bindings release the GIL: without_gil(work).  Every long
// call (batches, odds, table builds, replays) goes through it, so the
// argument that this is safe is made here once, and a call site only has
// to keep to it.
//
// Why it is safe.  `work` runs plain C++ and touches no Python object: no
// reference count, no attribute, no allocation through Python.  What it
// reads and writes is either C++ data (vectors owned by the calling frame;
// the core's tables, immutable once built, whose lazy builds are guarded
// by their own once_flags and mutexes) or the memory of Python objects the
// calling frame keeps referenced for the whole call: numpy arrays (numpy
// refuses to resize a referenced array, so their buffers stay put), bytes
// (immutable; a new one is seen by no one else until it is returned) and
// buffer views (held by py::buffer_info).  A CancelFlag is held by the
// call's arguments; with the GIL released another Python thread, or an
// asyncio callback, can call its cancel() meanwhile, and the work then
// stops within one chunk and raises CancelledError, translated to Python
// only once the GIL is back.  The result is returned as a C++ value, never
// as a Python object.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <optional>
#include <utility>

namespace prial::bindings {

// Batches this small keep the GIL: their work takes under a microsecond,
// less than releasing and retaking the GIL, which under load also hands
// the interpreter to another thread in the middle of a call.  A flag
// cancelled before the call still stops them.
constexpr std::size_t kKeepGilBelowRows = 2048;

// Whether a batch of `rows` three-card rows is worth releasing the GIL for.
constexpr bool worth_releasing_gil(std::size_t rows) noexcept { return rows >= kKeepGilBelowRows; }

// work() with the GIL released (kept when `release` is false), under the
// rules above; returns what it returns.
template <class Work>
auto without_gil(Work&& work, bool release = true) -> decltype(work()) {
  std::optional<pybind11::gil_scoped_release> released;
  if (release) released.emplace();
  return std::forward<Work>(work)();
}

}  // namespace prial::bindings
