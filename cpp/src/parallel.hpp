// Splitting a batch over threads, and into chunks between which the work
// can be cancelled (cancel.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "prial/cancel.hpp"

namespace prial {

// Rows below which another thread costs more than it saves.
inline constexpr std::size_t kMinRowsPerThread = 1 << 16;

inline int default_threads() noexcept {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

// Calls fn(begin, end) on contiguous, disjoint ranges covering [0, rows),
// one per thread; threads <= 0 means all cores.  fn must not throw.
// `min_rows_per_thread` is lower for costly rows (e.g. partitioning a deal).
template <class Fn>
void parallel_for(std::size_t rows, int threads, Fn&& fn,
                  std::size_t min_rows_per_thread = kMinRowsPerThread) {
  if (threads <= 0) threads = default_threads();
  const std::size_t useful = std::max<std::size_t>(1, rows / std::max<std::size_t>(1, min_rows_per_thread));
  const std::size_t parts = std::min<std::size_t>(static_cast<std::size_t>(threads), useful);
  if (parts <= 1) {
    fn(std::size_t{0}, rows);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(parts - 1);
  const std::size_t step = (rows + parts - 1) / parts;
  for (std::size_t p = 1; p < parts; ++p) {
    const std::size_t begin = std::min(rows, p * step);
    const std::size_t end = std::min(rows, begin + step);
    pool.emplace_back([&fn, begin, end] { fn(begin, end); });
  }
  fn(std::size_t{0}, std::min(rows, step));
  for (auto& t : pool) t.join();
}

// Calls fn(begin, end) on consecutive chunks of at most `chunk` (> 0)
// indices covering [begin, end), in order, on the calling thread.  Checks
// `cancel` before the first chunk (also when there is none) and before
// each next one, and throws Cancelled when it is set.  fn may return bool:
// true stops the walk there (a search that found what it looked for).
template <class Index, class Fn>
void for_each_chunk(Index begin, Index end, Index chunk, const CancelFlag* cancel, Fn&& fn) {
  if (begin >= end) throw_if_cancelled(cancel);
  for (Index b = begin; b < end;) {
    throw_if_cancelled(cancel);
    const Index e = end - b > chunk ? b + chunk : end;
    if constexpr (std::is_same_v<decltype(fn(b, e)), bool>) {
      if (fn(b, e)) return;
    } else {
      fn(b, e);
    }
    b = e;
  }
}

// parallel_for in chunks of at most `chunk` (> 0) rows: each thread walks
// its range chunk by chunk, checking `cancel` before each chunk (and once
// before any thread starts).  Once a thread sees the flag set, or a chunk
// throws, every thread stops before its next chunk; all are joined, then
// the first exception thrown is rethrown, else Cancelled when the work was
// cut short.  Work that finished before the flag was seen returns normally.
// Size `chunk` so that a chunk takes at most ~10-20 ms on one core: the
// checks then cost nothing next to the rows, and a cancel is seen within
// one chunk's time.
template <class Fn>
void parallel_chunks(std::size_t rows, int threads, std::size_t chunk, const CancelFlag* cancel, Fn&& fn,
                     std::size_t min_rows_per_thread = kMinRowsPerThread) {
  throw_if_cancelled(cancel);
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; b += std::min(chunk, end - b)) {
      if (stop.load(std::memory_order_relaxed)) return;
      if (is_cancelled(cancel)) {
        stop.store(true, std::memory_order_relaxed);
        return;
      }
      try {
        fn(b, b + std::min(chunk, end - b));
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
        return;
      }
    }
  }, min_rows_per_thread);
  if (error) std::rethrow_exception(error);
  if (stop.load(std::memory_order_relaxed)) throw Cancelled();
}

}  // namespace prial
