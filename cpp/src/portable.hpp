// Compiler and platform specifics, in one place: each has a GCC/Clang form,
// an MSVC form and a plain C++ fallback, so the core builds with any C++17
// compiler.
//
// Every function here is `static inline`: the SIMD translation units
// (built with -mavx2 / -mavx512*) include this header too, and a shared
// inline copy could be the one the linker keeps for code that runs before
// the CPU check (kernels.hpp).  With internal linkage each unit keeps its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(_WIN32)
#include <malloc.h>
#endif
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#define PRIAL_X86 1
#if defined(__GNUC__) || defined(__clang__)
#include <cpuid.h>
#endif
#endif

namespace prial::portable {

// ---- bit scans ---------------------------------------------------------------

namespace fallback {

// De Bruijn bit scans: the mask of the bits up to and including bit i,
// times this constant, has a distinct top six bits for each i.
inline constexpr std::uint64_t kDeBruijn = 0x03f79d71b4cb0a89u;

// (A plain array: no member functions for the SIMD translation units to emit.)
struct BitIndex {
  std::uint8_t of[64]{};
  constexpr BitIndex() {
    for (unsigned i = 0; i < 64; ++i) {
      const std::uint64_t up_to_i = i == 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (i + 1)) - 1;
      of[static_cast<std::size_t>((up_to_i * kDeBruijn) >> 58)] = static_cast<std::uint8_t>(i);
    }
  }
};
inline constexpr BitIndex kBitIndex{};

// The index of the lowest set bit of x != 0.
static constexpr unsigned lowest_bit(std::uint64_t x) noexcept {
  return kBitIndex.of[static_cast<std::size_t>(((x ^ (x - 1)) * kDeBruijn) >> 58)];
}

// The index of the highest set bit of x != 0.
static constexpr unsigned highest_bit(std::uint64_t x) noexcept {
  for (unsigned shift = 1; shift < 64; shift *= 2) x |= x >> shift;
  return kBitIndex.of[static_cast<std::size_t>((x * kDeBruijn) >> 58)];
}

}  // namespace fallback

// The index of the lowest set bit of x; x must not be 0.
static inline unsigned lowest_bit(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_ctzll(x));
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long index;
  _BitScanForward64(&index, x);
  return static_cast<unsigned>(index);
#else
  return fallback::lowest_bit(x);
#endif
}

// The index of the highest set bit of x; x must not be 0.
static inline unsigned highest_bit(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return 63u - static_cast<unsigned>(__builtin_clzll(x));
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long index;
  _BitScanReverse64(&index, x);
  return static_cast<unsigned>(index);
#else
  return fallback::highest_bit(x);
#endif
}

// ---- arithmetic ----------------------------------------------------------------

// a + b into *sum; true when it wrapped.  Unsigned wrap-around is defined,
// and compilers turn this into an add and a carry test, as with
// __builtin_add_overflow, so no builtin is needed.
static inline bool add_overflows(std::uint64_t a, std::uint64_t b, std::uint64_t* sum) noexcept {
  *sum = a + b;
  return *sum < a;
}

// ---- memory --------------------------------------------------------------------

// A hint that `address` will be read soon; never faults, whatever the address.
static inline void prefetch(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
  _mm_prefetch(static_cast<const char*>(address), _MM_HINT_T0);
#elif defined(_MSC_VER) && defined(_M_ARM64)
  __prefetch(address);
#else
  (void)address;
#endif
}

// `bytes` (a multiple of `alignment`) aligned to `alignment`, or null;
// release with aligned_release.  Windows has no std::aligned_alloc (its
// free() cannot release an over-aligned block), so it has its own pair.
static inline void* aligned_allocate(std::size_t alignment, std::size_t bytes) noexcept {
#if defined(_WIN32)
  return _aligned_malloc(bytes, alignment);
#else
  return std::aligned_alloc(alignment, bytes);
#endif
}

static inline void aligned_release(void* block) noexcept {
#if defined(_WIN32)
  _aligned_free(block);
#else
  std::free(block);
#endif
}

// ---- x86 CPU features ------------------------------------------------------------

#if defined(PRIAL_X86)
struct CpuidRegisters {
  std::uint32_t eax, ebx, ecx, edx;
};

// CPUID of `leaf` and `subleaf`; the caller checks that the leaf exists.
static inline CpuidRegisters cpuid(std::uint32_t leaf, std::uint32_t subleaf) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  unsigned a, b, c, d;
  __cpuid_count(leaf, subleaf, a, b, c, d);
  return {a, b, c, d};
#elif defined(_MSC_VER)
  int r[4];
  __cpuidex(r, static_cast<int>(leaf), static_cast<int>(subleaf));
  return {static_cast<std::uint32_t>(r[0]), static_cast<std::uint32_t>(r[1]), static_cast<std::uint32_t>(r[2]),
          static_cast<std::uint32_t>(r[3])};
#endif
}

// XCR0: the register state the OS saves on a context switch.  Only valid
// when CPUID leaf 1 reports OSXSAVE.  (Inline assembly rather than
// _xgetbv, which GCC and Clang only allow in code built with -mxsave.)
static inline std::uint64_t saved_register_state() noexcept {
#if defined(__GNUC__) || defined(__clang__)
  std::uint32_t low, high;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (std::uint64_t{high} << 32) | low;
#elif defined(_MSC_VER)
  return _xgetbv(0);
#endif
}
#endif

}  // namespace prial::portable
