// Two-player sees in bulk (SPEC §5): the seen player shows first and the
// seer wins only with a strictly better hand; equal hands go to the seen
// player.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "prial/evaluator.hpp"

namespace prial {

// Row i compares seer[3i..3i+2] with seen[3i..3i+2]: out[i] = 1 when the
// seer's hand is strictly stronger, else 0.  Every row is validated (both
// hands valid and no card in both); returns the first invalid row (outputs
// unspecified) or kNoBadRow.  Never throws.
std::size_t showdown_batch3(const Evaluator& ev, const Card* seer, const Card* seen, std::size_t rows,
                            std::uint8_t* out, int threads) noexcept;

// Why row `row` of a (seer, seen) batch of `width`-card hands is invalid:
// "row 17: seer: duplicate card 7h at positions 0 and 2",
// "row 3: card 7h is in both hands (seer position 0, seen position 2)".
std::string explain_showdown_row(const Evaluator& ev, const Card* seer, const Card* seen,
                                 std::size_t row, std::size_t width);

// True when some card appears in both `width`-card hands of row i.
inline bool hands_share_a_card(const Card* a, const Card* b, std::size_t width) noexcept {
  std::uint64_t mask = 0;
  for (std::size_t k = 0; k < width; ++k) mask |= std::uint64_t{1} << (a[k] & 63u);
  bool shared = false;
  for (std::size_t k = 0; k < width; ++k) shared |= ((mask >> (b[k] & 63u)) & 1u) != 0;
  return shared;
}

}  // namespace prial
