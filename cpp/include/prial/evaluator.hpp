// Three-card evaluation under one ruleset: single hands and batches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "prial/cancel.hpp"
#include "prial/tables.hpp"

namespace prial {

inline constexpr std::size_t kNoBadRow = static_cast<std::size_t>(-1);

class Evaluator {
 public:
  explicit Evaluator(const RulesConfig& rules) : table_(three_card_table(rules)) {}

  const ThreeCardTable& table() const noexcept { return *table_; }
  const RulesConfig& rules() const noexcept { return table_->rules(); }

  // Slot of three cards in any order; throws InvalidHand (prefixed by
  // `where`) for a wrong count, an index out of range or a repeated card.
  std::uint32_t slot(const Card* cards, std::size_t count, const std::string& where = {}) const;

  // Strength of each of `rows` hands stored back to back (3 bytes a hand)
  // into `out`.  Every row is validated; returns the index of the first
  // invalid row (its output is unspecified) or kNoBadRow.  Throws only
  // Cancelled, when `cancel` is set before it finishes (checked between
  // chunks of rows; the output is then unspecified).
  std::size_t evaluate_batch(const Card* hands, std::size_t rows, Strength* out, int threads,
                             const CancelFlag* cancel = nullptr) const;

  // "row 17: duplicate card 7h: cards 1 and 3 of the hand".
  std::string explain_row(const Card* hands, std::size_t row, std::size_t width) const;

 private:
  std::shared_ptr<const ThreeCardTable> table_;
};

}  // namespace prial
