#include "prial/evaluator.hpp"

#include <algorithm>

#include "batch_rows.hpp"
#include "kernels.hpp"

namespace prial {

std::uint32_t Evaluator::slot(const Card* cards, std::size_t count, const std::string& where) const {
  if (count != 3) {
    throw InvalidHand((where.empty() ? std::string() : where + ": ") + "expected 3 cards, got " +
                      std::to_string(count) + (count ? read_as(cards, count) : std::string()));
  }
  validate_hand(cards, count, table_->pack_size(), where);
  int s[3] = {cards[0], cards[1], cards[2]};
  std::sort(s, s + 3);
  return three_card_slot(s[0], s[1], s[2]);
}

namespace {

// Rows between cancellation checks: ~5 ms on one core with the scalar
// kernel (4.6 ns a row), ~1 ms with AVX2.
constexpr std::size_t kEvaluateChunk = std::size_t{1} << 20;

}  // namespace

std::size_t Evaluator::evaluate_batch(const Card* hands, std::size_t rows, Strength* out, int threads,
                                      const CancelFlag* cancel) const {
  const KernelTables tables{table_->strengths(), static_cast<unsigned>(table_->pack_size()),
                            table_->by_rank_low(), table_->by_rank_high()};
  const ThreeCardKernel kernel = three_card_kernel();
  const int pack = table_->pack_size();
  return first_bad_row(
      rows, threads, kEvaluateChunk, cancel,
      [&](std::size_t begin, std::size_t end) { return kernel(hands + 3 * begin, end - begin, out + begin, tables); },
      [&](std::size_t row) { return !hand_problem(hands + 3 * row, 3, pack).empty(); });
}

std::string Evaluator::explain_row(const Card* hands, std::size_t row, std::size_t width) const {
  return "row " + std::to_string(row) + ": " +
         hand_problem(hands + width * row, width, table_->pack_size());
}

}  // namespace prial
