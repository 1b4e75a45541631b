// The best-of batch kernels (internal): key_batch's and the four- and
// five-card sees', portable and AVX2 (bestof.cpp, bestof_avx2.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "prial/bestof.hpp"

namespace prial {

// The batch kernels behind key_batch, one contiguous run of `rows` hands:
// keys into out; returns true when a row is invalid (its output is then
// unspecified).  Plain functions, so the SIMD translation unit (compiled
// for its instruction set, see kernels.hpp) shares no inline code.
bool best_of_rows_scalar(const Card* hands, std::size_t rows, std::size_t width, BestKey* out,
                         const BestKey* table, unsigned pack) noexcept;
// See kernels (width 4 or 5): row i of `seer` and of `seen`, out[i] = 1 when
// the seer's key is strictly higher, else 0; true when a row is invalid
// (either hand, or a card in both; its output is then unspecified).
bool best_of_see_rows_scalar(const Card* seer, const Card* seen, std::size_t rows, std::size_t width,
                             std::uint8_t* out, const BestKey* table, unsigned pack) noexcept;
#if defined(PRIAL_HAVE_X86_KERNELS)
// The AVX2 kernels read `by_rank` (by_rank_keys()) by by-rank slot when it
// is not null, else `table` by colex slot.
bool best_of_four_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            const BestKey* by_rank, unsigned pack) noexcept;
bool best_of_five_rows_avx2(const Card* hands, std::size_t rows, BestKey* out, const BestKey* table,
                            const BestKey* by_rank, unsigned pack) noexcept;
bool best_of_see_rows_avx2(const Card* seer, const Card* seen, std::size_t rows, std::size_t width,
                           std::uint8_t* out, const BestKey* table, const BestKey* by_rank,
                           unsigned pack) noexcept;
#endif

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
