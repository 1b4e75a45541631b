// Two-player sees in bulk (SPEC §5): the seen player shows first and the
// seer wins only with a strictly better hand; equal hands go to the seen
// player (four/five cards: after the discard tie-break).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "prial/bestof.hpp"
#include "prial/evaluator.hpp"  // kNoBadRow

namespace prial {

// Row i compares the seer's `width` (3, 4 or 5) cards with the seen
// player's, both stored back to back: out[i] = 1 when the seer's hand is
// strictly stronger, else 0.  Three cards compare by strength (the
// evaluator's SIMD batch kernel), four and five by best-of key (bestof.hpp:
// the three-card strength, then the discards).  Every row is validated
// (both hands valid and no card in both); returns the first invalid row
// (outputs unspecified) or kNoBadRow.  Throws InvalidHand only for a bad
// width.  `ev` and `table` belong to the same ruleset.
std::size_t showdown_batch(const Evaluator& ev, const BestOfTable& table, const Card* seer,
                           const Card* seen, std::size_t rows, std::size_t width, std::uint8_t* out,
                           int threads);

// Why row `row` of a (seer, seen) batch of `width`-card hands is invalid
// ("" if it is valid): "row 17: seer: duplicate card 7h at positions 0 and 2",
// "row 3: card 7h is in both hands (seer position 0, seen position 2)".
std::string explain_showdown_row(int pack_size, const Card* seer, const Card* seen, std::size_t row,
                                 std::size_t width);

// True when some card appears in both `width`-card hands (each hand's own
// cards valid and distinct: a card >= 64 wraps here, but the hand's own
// validation flags it).
inline bool hands_share_a_card(const Card* a, const Card* b, std::size_t width) noexcept {
  std::uint64_t in_a = 0, in_b = 0;
  for (std::size_t i = 0; i < width; ++i) {
    in_a |= std::uint64_t{1} << (a[i] & 63u);
    in_b |= std::uint64_t{1} << (b[i] & 63u);
  }
  return (in_a & in_b) != 0;
}

}  // namespace prial
