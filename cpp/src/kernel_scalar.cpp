// The portable three-card batch kernel (kernels.hpp).
#include <cstring>

#include "kernels.hpp"
#include "portable.hpp"

namespace prial {

namespace {

// Branch-free, so random hands cost no mispredictions: the three cards
// become bits of a 64-bit set whose lowest, second and highest bits are the
// sorted cards.  A repeated card leaves fewer than three bits (the middle
// then equals the top, or is the sentinel bit 63), a byte of 64 or more
// would alias (rejected first), and an invalid row reads slot 0.  `bits`
// is the card set, for the see kernel's check of cards in both hands.
struct RowSlot {
  unsigned slot;
  unsigned valid;  // 1 or 0
  std::uint64_t bits;
};

inline RowSlot row_slot(const Card* hand, unsigned pack) noexcept {
  const unsigned a = hand[0], b = hand[1], c = hand[2];
  const std::uint64_t bits = (std::uint64_t{1} << (a & 63)) | (std::uint64_t{1} << (b & 63)) |
                             (std::uint64_t{1} << (c & 63));
  const unsigned bottom = portable::lowest_bit(bits);
  const unsigned middle = portable::lowest_bit((bits & (bits - 1)) | (std::uint64_t{1} << 63));
  const unsigned top = portable::highest_bit(bits);
  const unsigned valid = ((a | b | c) < 64) & (middle < top) & (top < pack);
  const unsigned slot = (bottom + kColex.choose2[middle] + kColex.choose3[top]) & (0u - valid);
  return {slot, valid, bits};
}

}  // namespace

bool evaluate_rows_scalar(const Card* hands, std::size_t rows, Strength* out,
                          const KernelTables& tables) noexcept {
  unsigned bad = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const RowSlot row = row_slot(hands + 3 * i, tables.pack);
    out[i] = tables.strengths[row.slot];
    bad |= row.valid ^ 1u;
  }
  return bad != 0;
}

// The card sets make the check for a card in both hands one AND: a byte of
// 64 or more aliases there, but its own hand is already invalid.
bool showdown_rows_scalar(const Card* seer, const Card* seen, std::size_t rows, std::uint8_t* out,
                          const KernelTables& tables) noexcept {
  unsigned bad = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const RowSlot a = row_slot(seer + 3 * i, tables.pack), b = row_slot(seen + 3 * i, tables.pack);
    out[i] = static_cast<std::uint8_t>(tables.strengths[a.slot] > tables.strengths[b.slot]);
    bad |= (a.valid & b.valid & static_cast<unsigned>((a.bits & b.bits) == 0)) ^ 1u;
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

void streaming_floor_scalar(const Card* hands, std::size_t rows, std::uint16_t* out) noexcept {
  streaming_floor_rows(hands, rows, out);
}

}  // namespace prial
