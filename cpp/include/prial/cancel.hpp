// Stopping long native work from outside: a flag another thread sets, and
// the exception the work then ends with.
//
// Every long entry point of the core (batches, partitioning, equity, text
// columns) takes an optional `const CancelFlag*` (nullptr: not
// cancellable).  It checks the flag once before starting and then between
// chunks of its work sized to take at most ~10-20 ms on one core, never
// per row, and throws Cancelled once it sees the flag set; what it had
// written to its outputs is then unspecified.  Pure C++: the bindings
// expose the flag to Python (prial.CancelFlag) and translate Cancelled to
// prial.CancelledError.
#pragma once

#include <atomic>
#include <stdexcept>

namespace prial {

class CancelFlag {
 public:
  CancelFlag() = default;
  CancelFlag(const CancelFlag&) = delete;
  CancelFlag& operator=(const CancelFlag&) = delete;

  // Asks the work watching this flag to stop; may be called from any
  // thread, any number of times.  There is no way back: a flag stays set.
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
};

// Thrown by work that saw its CancelFlag set before it finished.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("the work was cancelled before it finished") {}
};

inline bool is_cancelled(const CancelFlag* flag) noexcept { return flag != nullptr && flag->cancelled(); }

inline void throw_if_cancelled(const CancelFlag* flag) {
  if (is_cancelled(flag)) throw Cancelled();
}

}  // namespace prial
