// The instruction-set level of the batch kernels: which one runs (picked
// once at run time for the CPU at hand), forced for tests and benchmarks,
// and the streaming floor the benchmarks measure the kernels against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "prial/cards.hpp"

namespace prial {

// Instruction-set levels, lowest first.
enum class SimdLevel : int { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

const char* simd_level_name(SimdLevel level) noexcept;
// The highest level this CPU (and OS) supports.
SimdLevel supported_simd_level() noexcept;
// The level in use: the supported one, capped by the environment variable
// PRIAL_SIMD=scalar|avx2|avx512 when it is set (read once).
SimdLevel simd_level() noexcept;
// Forces a level (tests, benchmarks); throws InvalidHand for an unknown
// name or a level this CPU lacks.
void set_simd_level(const std::string& name);

// Streaming floor (benchmarks): out[i] = hands[3i] + hands[3i+1] +
// hands[3i+2], the traffic of a three-card kernel (3 bytes read, 2 written
// a hand) with about the least work a pass can do that no compiler can
// drop.  One per level, each the same loop built with its level's flags,
// so every kernel can be stated against what its own instruction set
// streams.
using StreamingFloor = void (*)(const Card* hands, std::size_t rows, std::uint16_t* out);

// The streaming floor of the level named (whatever level is in use);
// throws InvalidHand, as set_simd_level does, for an unknown name or a
// level this CPU lacks.
StreamingFloor streaming_floor(const std::string& level);

}  // namespace prial
