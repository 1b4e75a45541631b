// Batch kernels for three-card evaluation, one per instruction-set level,
// chosen once at run time (portable builds: no -march=native needed).
// Internal: callers choose the level through prial/simd.hpp.
//
// Every kernel does the same thing for `rows` hands stored back to back
// (3 bytes a hand): validate each row (index < pack, no repeated card), find
// its colex slot (tables.hpp) and store table[slot] into out.  An invalid
// row reads slot 0 and only makes the kernel return true; its output is
// unspecified.  No input byte 0..255 makes a kernel read outside `table`.
// The AVX-512 kernel reads the by-rank copy instead when there is one.
//
// The SIMD kernels live in translation units of their own compiled with
// -mavx2 / -mavx512*; they use only intrinsics and the plain functions
// declared here (compiled for baseline x86-64), never inline code shared
// with other translation units, so no wide instruction can leak into code
// that runs before the CPU check.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portable.hpp"
#include "prial/cards.hpp"
#include "prial/simd.hpp"
#include "prial/tables.hpp"

namespace prial {

// What a kernel reads: the strength table (slots), the pack size, and the
// optional by-rank copy (ThreeCardTable::by_rank_low/high, may be null).
struct KernelTables {
  const Strength* strengths;
  unsigned pack;
  const std::uint8_t* by_rank_low;
  const std::uint8_t* by_rank_high;
};

using ThreeCardKernel = bool (*)(const Card* hands, std::size_t rows, Strength* out,
                                 const KernelTables& tables);

// Fused see kernels: row i of `seer` and of `seen` (3 bytes a hand each),
// out[i] = 1 when the seer's strength is strictly higher, else 0.  Both
// hands are validated as above and must share no card; an invalid row only
// makes the kernel return true (its output is unspecified).  One pass
// values both hands and compares them in registers, so nothing is written
// but the outcome.
using ThreeCardShowdownKernel = bool (*)(const Card* seer, const Card* seen, std::size_t rows,
                                         std::uint8_t* out, const KernelTables& tables);

// C(n, 2) and C(n, 3) for n < 64 as 16-bit words (C(63, 3) = 39,711), the
// column terms of the colex slot; entries above the largest pack only serve
// rows that are rejected anyway.
// (Plain arrays: no member functions for the SIMD translation units to emit.)
struct ColexColumns {
  std::uint16_t choose2[64]{}, choose3[64]{};
  constexpr ColexColumns() {
    for (unsigned n = 0; n < 64; ++n) {
      choose2[n] = static_cast<std::uint16_t>(n < 2 ? 0 : n * (n - 1) / 2);
      choose3[n] = static_cast<std::uint16_t>(n < 3 ? 0 : n * (n - 1) * (n - 2) / 6);
    }
  }
};
inline constexpr ColexColumns kColex{};

// Prefetches `bytes` of the input from `offset` on, which may lie past its
// end (a prefetch never faults; the address is formed as an integer).  The
// SIMD kernels need it because the hardware prefetcher falls behind while a
// chunk's table loads run (measured: about +25% at 10M hands from DRAM).
// `static`: each translation unit keeps its own copy built for its own
// instruction set.
static inline void prefetch_input(const Card* base, std::size_t offset, std::size_t bytes) noexcept {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(base) + offset;
  for (std::size_t line = 0; line < bytes; line += 64) {
    portable::prefetch(reinterpret_cast<const void*>(at + line));
  }
}

// The floor's loop; `static` for the reason prefetch_input is, and plain
// C++ so that each level's compiler flags alone decide its vector width.
static inline void streaming_floor_rows(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept {
  for (std::size_t i = 0; i < rows; ++i) {
    out[i] = static_cast<std::uint16_t>(hands[3 * i] + hands[3 * i + 1] + hands[3 * i + 2]);
  }
}

// Portable kernel: the reference for the others and their tail.
bool evaluate_rows_scalar(const Card* hands, std::size_t rows, Strength* out,
                          const KernelTables& tables) noexcept;
void streaming_floor_scalar(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept;
bool showdown_rows_scalar(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out,
                          const KernelTables& tables) noexcept;

#if defined(PRIAL_HAVE_X86_KERNELS)
// out[i] = table[slots[i]]: the table loads of the SIMD kernels, done with
// scalar loads (faster than AVX2/AVX-512 gathers on the Zen 4 measured).
void lookup_slots(const std::uint16_t* slots, std::size_t count, Strength* out,
                  const Strength* table) noexcept;
bool evaluate_rows_avx2(const Card* hands, std::size_t rows, Strength* out,
                        const KernelTables& tables) noexcept;
bool evaluate_rows_avx512(const Card* hands, std::size_t rows, Strength* out,
                          const KernelTables& tables) noexcept;
bool showdown_rows_avx2(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out,
                        const KernelTables& tables) noexcept;
void streaming_floor_avx2(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept;
void streaming_floor_avx512(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept;
#endif

// The kernel of the level in use.
ThreeCardKernel three_card_kernel() noexcept;
// The see kernel of the level in use; the AVX-512 level runs the AVX2 one
// (there is no AVX-512 see kernel).
ThreeCardShowdownKernel three_card_showdown_kernel() noexcept;
}  // namespace prial
