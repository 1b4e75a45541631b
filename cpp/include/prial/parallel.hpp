// Splitting a batch over threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

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

}  // namespace prial
