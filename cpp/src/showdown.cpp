#include "prial/showdown.hpp"

#include <algorithm>
#include <atomic>

#include "prial/parallel.hpp"

namespace prial {
namespace {

// Rows per block: both hands' values of a block stay in L1 next to the
// input, and the batch kernels (SIMD for three cards, prefetching for
// best-of keys) do the lookups.
constexpr std::size_t kBlock = 2048;

// Values both hands of each block with `value_of(hands, n, out) -> bad`,
// then compares; returns true when some row was invalid.
template <class Value, std::size_t width, class ValueOf>
bool compare_blocks(const Card* seer, const Card* seen, std::size_t begin, std::size_t end,
                    std::uint8_t* out, ValueOf&& value_of) noexcept {
  Value seer_value[kBlock];
  Value seen_value[kBlock];
  bool bad = false;
  for (std::size_t b = begin; b < end; b += kBlock) {
    const std::size_t n = std::min(kBlock, end - b);
    bad |= value_of(seer + width * b, n, seer_value);
    bad |= value_of(seen + width * b, n, seen_value);
    // Two plain loops: the comparison vectorizes on its own.
    for (std::size_t i = 0; i < n; ++i) out[b + i] = static_cast<std::uint8_t>(seer_value[i] > seen_value[i]);
    unsigned shared = 0;
    for (std::size_t i = 0; i < n; ++i) {
      shared |= static_cast<unsigned>(hands_share_a_card(seer + width * (b + i), seen + width * (b + i), width));
    }
    bad |= shared != 0;
  }
  return bad;
}

template <class Value, std::size_t width, class ValueOf>
std::size_t showdown_rows(const Card* seer, const Card* seen, std::size_t rows, int pack_size,
                          std::uint8_t* out, int threads, ValueOf value_of) noexcept {
  std::atomic<bool> any_bad{false};
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    if (compare_blocks<Value, width>(seer, seen, begin, end, out, value_of)) any_bad = true;
  });
  if (!any_bad) return kNoBadRow;
  for (std::size_t i = 0; i < rows; ++i) {
    if (!explain_showdown_row(pack_size, seer, seen, i, width).empty()) return i;
  }
  return kNoBadRow;  // unreachable: a flagged block holds a bad row
}

}  // namespace

std::size_t showdown_batch(const Evaluator& ev, const BestOfTable& table, const Card* seer,
                           const Card* seen, std::size_t rows, std::size_t width, std::uint8_t* out,
                           int threads) {
  if (width < 3 || width > 5) {
    throw InvalidHand("showdowns take 3, 4 or 5 cards a hand, got " + std::to_string(width));
  }
  const int pack = table.pack_size();
  if (width == 3) {
    auto strengths_of = [&ev](const Card* hands, std::size_t n, Strength* values) {
      return ev.evaluate_batch(hands, n, values, 1) != kNoBadRow;
    };
    return showdown_rows<Strength, 3>(seer, seen, rows, pack, out, threads, strengths_of);
  }
  table.keys(width);  // built once here, not raced for by the worker threads
  auto keys_of = [&table, width](const Card* hands, std::size_t n, BestKey* values) {
    return table.key_batch(hands, n, width, values, 1) != kNoBadRow;
  };
  return width == 4 ? showdown_rows<BestKey, 4>(seer, seen, rows, pack, out, threads, keys_of)
                    : showdown_rows<BestKey, 5>(seer, seen, rows, pack, out, threads, keys_of);
}

std::string explain_showdown_row(int pack_size, const Card* seer, const Card* seen, std::size_t row,
                                 std::size_t width) {
  const Card* a = seer + width * row;
  const Card* b = seen + width * row;
  const std::string where = "row " + std::to_string(row) + ": ";
  std::string problem = hand_problem(a, width, pack_size);
  if (!problem.empty()) return where + "seer: " + problem;
  problem = hand_problem(b, width, pack_size);
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
