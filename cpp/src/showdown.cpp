#include "prial/showdown.hpp"

#include <algorithm>
#include <atomic>

#include "prial/parallel.hpp"

namespace prial {
namespace {

// Rows per block: both hands' strengths of a block fit in L1 next to the
// input, and the evaluator's own branch-free kernel does the lookups.
constexpr std::size_t kBlock = 2048;

}  // namespace

std::size_t showdown_batch3(const Evaluator& ev, const Card* seer, const Card* seen, std::size_t rows,
                            std::uint8_t* out, int threads) noexcept {
  std::atomic<bool> any_bad{false};
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    Strength seer_strength[kBlock];
    Strength seen_strength[kBlock];
    bool bad = false;
    for (std::size_t b = begin; b < end; b += kBlock) {
      const std::size_t n = std::min(kBlock, end - b);
      bad |= ev.evaluate_batch(seer + 3 * b, n, seer_strength, 1) != kNoBadRow;
      bad |= ev.evaluate_batch(seen + 3 * b, n, seen_strength, 1) != kNoBadRow;
      for (std::size_t i = 0; i < n; ++i) {
        // Cards >= 64 cannot occur in a valid row; the kernel flags them.
        bad |= hands_share_a_card(seer + 3 * (b + i), seen + 3 * (b + i), 3);
        out[b + i] = static_cast<std::uint8_t>(seer_strength[i] > seen_strength[i]);
      }
    }
    if (bad) any_bad = true;
  });
  if (!any_bad) return kNoBadRow;
  for (std::size_t i = 0; i < rows; ++i) {
    if (!explain_showdown_row(ev, seer, seen, i, 3).empty()) return i;
  }
  return kNoBadRow;  // unreachable: a flagged block holds a bad row
}

std::string explain_showdown_row(const Evaluator& ev, const Card* seer, const Card* seen,
                                 std::size_t row, std::size_t width) {
  const Card* a = seer + width * row;
  const Card* b = seen + width * row;
  const std::string where = "row " + std::to_string(row) + ": ";
  const int pack = ev.table().pack_size();
  std::string problem = hand_problem(a, width, pack);
  if (!problem.empty()) return where + "seer: " + problem;
  problem = hand_problem(b, width, pack);
  if (!problem.empty()) return where + "seen: " + problem;
  for (std::size_t i = 0; i < width; ++i) {
    for (std::size_t j = 0; j < width; ++j) {
      if (a[i] == b[j]) {
        return where + "card " + format_card(a[i]) + " is in both hands (seer position " +
               std::to_string(i) + ", seen position " + std::to_string(j) + ")";
      }
    }
  }
  return {};
}

}  // namespace prial
