// Two-player sees in bulk (SPEC §5): the seen player shows first and the
// seer wins only with a strictly better hand; equal hands go to the seen
// player (four/five cards: after the discard tie-break).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "prial/bestof.hpp"
#include "prial/evaluator.hpp"

namespace prial {

// Row i compares seer[3i..3i+2] with seen[3i..3i+2]: out[i] = 1 when the
// seer's hand is strictly stronger, else 0.  Every row is validated (both
// hands valid and no card in both); returns the first invalid row (outputs
// unspecified) or kNoBadRow.  Never throws.
std::size_t showdown_batch3(const Evaluator& ev, const Card* seer, const Card* seen, std::size_t rows,
                            std::uint8_t* out, int threads) noexcept;

// The same for hands of `width` = 4 or 5 cards, compared by best-of keys
// (the discard tie-break included).  Throws InvalidHand only for a bad width.
std::size_t showdown_batch_best_of(const BestOfTable& table, const Card* seer, const Card* seen,
                                   std::size_t rows, std::size_t width, std::uint8_t* out, int threads);

// Why row `row` of a (seer, seen) batch of `width`-card hands is invalid
// ("" if it is valid): "row 17: seer: duplicate card 7h at positions 0 and 2",
// "row 3: card 7h is in both hands (seer position 0, seen position 2)".
std::string explain_showdown_row(int pack_size, const Card* seer, const Card* seen, std::size_t row,
                                 std::size_t width);

// True when some card appears in both `width`-card hands: every pair
// compared, branch-free (the compiler unrolls it for a fixed width).
inline bool hands_share_a_card(const Card* a, const Card* b, std::size_t width) noexcept {
  unsigned shared = 0;
  for (std::size_t i = 0; i < width; ++i) {
    for (std::size_t j = 0; j < width; ++j) shared |= static_cast<unsigned>(a[i] == b[j]);
  }
  return shared != 0;
}

}  // namespace prial
