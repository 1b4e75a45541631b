// Run-time choice of the three-card batch kernel (kernels.hpp).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "prial/kernels.hpp"

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

SimdLevel detect() noexcept {
#if defined(PRIAL_HAVE_X86_KERNELS)
  __builtin_cpu_init();  // may run before the constructors that would call it
  // __builtin_cpu_supports also checks that the OS saves the wide registers.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vbmi")) {
    return SimdLevel::kAvx512;
  }
  if (__builtin_cpu_supports("avx2")) return SimdLevel::kAvx2;
#endif
  return SimdLevel::kScalar;
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

void set_simd_level(const std::string& name) {
  SimdLevel wanted;
  if (!level_from_name(name, &wanted)) {
    throw InvalidHand("unknown SIMD level '" + name + "' (expected scalar, avx2 or avx512)");
  }
  if (wanted > supported_simd_level()) {
    throw InvalidHand("SIMD level '" + name + "' is not supported by this CPU (best: " +
                      std::string(simd_level_name(supported_simd_level())) + ")");
  }
  current_level().store(static_cast<int>(wanted), std::memory_order_relaxed);
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

}  // namespace prial
