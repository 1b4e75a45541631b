// The scaffold of a validated batch (internal): rows through a kernel that
// reports bad rows only as a flag for its whole range, on threads in
// cancellable chunks, then the first bad row found by going over the
// flagged part again.  Three-card evaluation, best-of keys and sees share it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "parallel.hpp"
#include "prial/cancel.hpp"
#include "prial/evaluator.hpp"

namespace prial {

// Rows per block of the search for the first bad row: the kernel goes over
// a flagged chunk block by block, then row by row inside the first flagged
// block.  Any size finds the same row; this one keeps the search short.
inline constexpr std::size_t kBadRowSearchBlock = 2048;

// Calls rows_are_bad(begin, end) -> bool (true when a row of the range is
// invalid; its output is then unspecified) over [0, rows) in parallel
// chunks of `chunk` rows (parallel_chunks: cancellable between chunks).
// When some range was flagged, ranges are passed through it again on the
// calling thread, in order, and the first row for which row_is_bad(i) holds
// is returned; else kNoBadRow.  A flagged range holds a bad row, so once a
// range was flagged the result is never kNoBadRow.
template <class RowsAreBad, class RowIsBad>
std::size_t first_bad_row(std::size_t rows, int threads, std::size_t chunk, const CancelFlag* cancel,
                          const RowsAreBad& rows_are_bad, const RowIsBad& row_is_bad) {
  std::atomic<bool> any_bad{false};
  parallel_chunks(rows, threads, chunk, cancel, [&](std::size_t begin, std::size_t end) {
    if (rows_are_bad(begin, end)) any_bad = true;
  });
  if (!any_bad) return kNoBadRow;
  std::size_t bad = kNoBadRow;
  for_each_chunk(std::size_t{0}, rows, chunk, cancel, [&](std::size_t from, std::size_t to) {
    for (std::size_t begin = from; begin < to; begin += kBadRowSearchBlock) {
      const std::size_t end = std::min(to, begin + kBadRowSearchBlock);
      if (!rows_are_bad(begin, end)) continue;
      for (std::size_t i = begin; i < end; ++i) {
        if (row_is_bad(i)) {
          bad = i;
          return true;
        }
      }
    }
    return false;
  });
  return bad;
}

}  // namespace prial
