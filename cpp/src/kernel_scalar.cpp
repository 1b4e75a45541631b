// The portable three-card batch kernel (kernels.hpp).
#include <cstring>

#include "prial/kernels.hpp"
#include "prial/portable.hpp"

namespace prial {

// Branch-free, so random hands cost no mispredictions: the three cards
// become bits of a 64-bit set whose lowest, second and highest bits are the
// sorted cards.  A repeated card leaves fewer than three bits (the middle
// then equals the top, or is the sentinel bit 63), a byte of 64 or more
// would alias (rejected first), and an invalid row reads slot 0.
bool evaluate_rows_scalar(const Card* hands, std::size_t rows, Strength* out,
                          const KernelTables& tables) noexcept {
  const Strength* table = tables.strengths;
  const unsigned pack = tables.pack;
  unsigned bad = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const unsigned a = hands[3 * i], b = hands[3 * i + 1], c = hands[3 * i + 2];
    const std::uint64_t bits = (std::uint64_t{1} << (a & 63)) | (std::uint64_t{1} << (b & 63)) |
                               (std::uint64_t{1} << (c & 63));
    const unsigned bottom = portable::lowest_bit(bits);
    const unsigned middle = portable::lowest_bit((bits & (bits - 1)) | (std::uint64_t{1} << 63));
    const unsigned top = portable::highest_bit(bits);
    const unsigned valid = ((a | b | c) < 64) & (middle < top) & (top < pack);
    const unsigned slot = (bottom + kColex.choose2[middle] + kColex.choose3[top]) & (0u - valid);
    out[i] = table[slot];
    bad |= valid ^ 1u;
  }
  return bad != 0;
}

#if defined(PRIAL_HAVE_X86_KERNELS)
// Four slots per 64-bit load, two results per 32-bit store: fewer memory
// operations than one of each per hand, which is what bounds this loop.
// (Little-endian packing: only the x86 kernels call it.)
void lookup_slots(const std::uint16_t* slots, std::size_t count, Strength* out,
                  const Strength* table) noexcept {
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    std::uint64_t four;
    std::memcpy(&four, slots + i, sizeof four);
    const auto low = static_cast<std::uint32_t>(four), high = static_cast<std::uint32_t>(four >> 32);
    const std::uint32_t first = table[low & 0xffff] | std::uint32_t{table[low >> 16]} << 16;
    const std::uint32_t second = table[high & 0xffff] | std::uint32_t{table[high >> 16]} << 16;
    std::memcpy(out + i, &first, sizeof first);
    std::memcpy(out + i + 2, &second, sizeof second);
  }
  for (; i < count; ++i) out[i] = table[slots[i]];
}
#endif

}  // namespace prial
