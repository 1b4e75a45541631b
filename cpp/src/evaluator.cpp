#include "prial/evaluator.hpp"

#include <algorithm>
#include <atomic>

#include "prial/parallel.hpp"

namespace prial {
namespace {

constexpr const auto& kChoose2 = kChoose<2>;
constexpr const auto& kChoose3 = kChoose<3>;

// One contiguous range of rows.  Branch-free: a three-element sorting
// network, the colex slot, one table load; an invalid row (out of range or
// repeated card) reads slot 0 and only raises the returned flag.
bool evaluate_range(const Card* hands, std::size_t begin, std::size_t end, Strength* out,
                    const Strength* table, unsigned pack) noexcept {
  unsigned bad = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const unsigned a = hands[3 * i], b = hands[3 * i + 1], c = hands[3 * i + 2];
    const unsigned lo = std::min(a, b), hi = std::max(a, b);
    const unsigned mid = std::min(hi, c), top = std::max(hi, c);
    const unsigned bottom = std::min(lo, mid), middle = std::max(lo, mid);
    const unsigned valid = (bottom < middle) & (middle < top) & (top < pack);
    const unsigned clamped_top = valid ? top : 2u;  // keeps the loads inside the tables
    const std::uint32_t slot = valid ? bottom + kChoose2[middle] + kChoose3[clamped_top] : 0u;
    out[i] = table[slot];
    bad |= valid ^ 1u;
  }
  return bad != 0;
}

}  // namespace

std::uint32_t Evaluator::slot(const Card* cards, std::size_t count, const std::string& where) const {
  if (count != 3) {
    throw InvalidHand((where.empty() ? std::string() : where + ": ") + "expected 3 cards, got " +
                      std::to_string(count));
  }
  validate_hand(cards, count, table_->pack_size(), where);
  int s[3] = {cards[0], cards[1], cards[2]};
  std::sort(s, s + 3);
  return three_card_slot(s[0], s[1], s[2]);
}

std::size_t Evaluator::evaluate_batch(const Card* hands, std::size_t rows, Strength* out,
                                      int threads) const noexcept {
  std::atomic<bool> any_bad{false};
  const Strength* table = table_->strengths();
  const auto pack = static_cast<unsigned>(table_->pack_size());
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    if (evaluate_range(hands, begin, end, out, table, pack)) any_bad = true;
  });
  if (!any_bad) return kNoBadRow;
  for (std::size_t i = 0; i < rows; ++i) {
    if (!hand_problem(hands + 3 * i, 3, table_->pack_size()).empty()) return i;
  }
  return kNoBadRow;  // unreachable: a flagged range holds a bad row
}

std::string Evaluator::explain_row(const Card* hands, std::size_t row, std::size_t width) const {
  return "row " + std::to_string(row) + ": " +
         hand_problem(hands + width * row, width, table_->pack_size());
}

}  // namespace prial
