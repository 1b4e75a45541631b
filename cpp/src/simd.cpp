// Run-time choice of the three-card batch kernel (kernels.hpp).
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernels.hpp"
#include "portable.hpp"

namespace prial {
namespace {

constexpr const char* kLevelNames[] = {"scalar", "avx2", "avx512"};

bool level_from_name(const std::string& name, SimdLevel* level) {
  for (int i = 0; i < 3; ++i) {
    if (name == kLevelNames[i]) {
      *level = static_cast<SimdLevel>(i);
      return true;
    }
  }
  return false;
}

#if defined(PRIAL_HAVE_X86_KERNELS)
// The kernels' instruction sets, from CPUID, each usable only if the OS
// also saves the registers it widens (XCR0): AVX2 needs the YMM state, the
// AVX-512 kernel (F, BW, VL, VBMI: its compile flags) the opmask and ZMM.
SimdLevel detect_x86() noexcept {
  using portable::cpuid;
  if (cpuid(0, 0).eax < 7) return SimdLevel::kScalar;
  constexpr std::uint32_t kOsxsave = 1u << 27, kAvx = 1u << 28;  // leaf 1, ECX
  if ((cpuid(1, 0).ecx & (kOsxsave | kAvx)) != (kOsxsave | kAvx)) return SimdLevel::kScalar;
  const std::uint64_t saved = portable::saved_register_state();
  constexpr std::uint64_t kYmmState = 0x6, kZmmState = 0xe0;  // SSE + AVX; opmask, ZMM_Hi256, Hi16_ZMM
  if ((saved & kYmmState) != kYmmState) return SimdLevel::kScalar;
  const portable::CpuidRegisters leaf7 = cpuid(7, 0);
  constexpr std::uint32_t kAvx2 = 1u << 5;  // leaf 7, EBX
  if ((leaf7.ebx & kAvx2) == 0) return SimdLevel::kScalar;
  constexpr std::uint32_t kAvx512 = (1u << 16) | (1u << 30) | (1u << 31);  // EBX: F, BW, VL
  constexpr std::uint32_t kVbmi = 1u << 1;                                 // ECX
  const bool avx512 =
      (saved & kZmmState) == kZmmState && (leaf7.ebx & kAvx512) == kAvx512 && (leaf7.ecx & kVbmi) != 0;
  return avx512 ? SimdLevel::kAvx512 : SimdLevel::kAvx2;
}
#endif

SimdLevel detect() noexcept {
#if defined(PRIAL_HAVE_X86_KERNELS)
  return detect_x86();
#else
  return SimdLevel::kScalar;  // no wide kernels built for this architecture or compiler
#endif
}

// The environment can only lower the level: a request above what the CPU
// supports, or an unknown name, is reported once on stderr and not obeyed.
SimdLevel initial_level() noexcept {
  const SimdLevel supported = supported_simd_level();
  const char* env = std::getenv("PRIAL_SIMD");
  if (env == nullptr || *env == '\0') return supported;
  SimdLevel wanted;
  if (!level_from_name(env, &wanted)) {
    std::fprintf(stderr, "prial: ignoring PRIAL_SIMD=%s (expected scalar, avx2 or avx512)\n", env);
    return supported;
  }
  if (wanted > supported) {
    std::fprintf(stderr, "prial: PRIAL_SIMD=%s is not supported by this CPU; using %s\n", env,
                 simd_level_name(supported));
    return supported;
  }
  return wanted;
}

std::atomic<int>& current_level() {
  static std::atomic<int> level{static_cast<int>(initial_level())};
  return level;
}

}  // namespace

const char* simd_level_name(SimdLevel level) noexcept { return kLevelNames[static_cast<int>(level)]; }

SimdLevel supported_simd_level() noexcept {
  static const SimdLevel level = detect();
  return level;
}

SimdLevel simd_level() noexcept { return static_cast<SimdLevel>(current_level().load(std::memory_order_relaxed)); }

namespace {

// The level named, which this CPU must have; throws InvalidHand otherwise.
SimdLevel usable_level(const std::string& name) {
  SimdLevel wanted;
  if (!level_from_name(name, &wanted)) {
    throw InvalidHand("unknown SIMD level '" + name + "' (expected scalar, avx2 or avx512)");
  }
  if (wanted > supported_simd_level()) {
    throw InvalidHand("SIMD level '" + name + "' is not supported by this CPU (best: " +
                      std::string(simd_level_name(supported_simd_level())) + ")");
  }
  return wanted;
}

}  // namespace

void set_simd_level(const std::string& name) {
  current_level().store(static_cast<int>(usable_level(name)), std::memory_order_relaxed);
}

ThreeCardKernel three_card_kernel() noexcept {
  switch (simd_level()) {
#if defined(PRIAL_HAVE_X86_KERNELS)
    case SimdLevel::kAvx512: return evaluate_rows_avx512;
    case SimdLevel::kAvx2: return evaluate_rows_avx2;
#endif
    default: return evaluate_rows_scalar;
  }
}

ThreeCardShowdownKernel three_card_showdown_kernel() noexcept {
#if defined(PRIAL_HAVE_X86_KERNELS)
  if (simd_level() >= SimdLevel::kAvx2) return showdown_rows_avx2;
#endif
  return showdown_rows_scalar;
}

StreamingFloor streaming_floor(const std::string& level) {
  switch (usable_level(level)) {
#if defined(PRIAL_HAVE_X86_KERNELS)
    case SimdLevel::kAvx512: return streaming_floor_avx512;
    case SimdLevel::kAvx2: return streaming_floor_avx2;
#endif
    default: return streaming_floor_scalar;
  }
}

}  // namespace prial
