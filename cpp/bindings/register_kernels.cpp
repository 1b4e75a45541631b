// The batch kernels' instruction-set level (which kernel runs, forced for
// tests and benchmarks) and the streaming floor the benchmarks measure
// the kernels against.
#include <string>

#include "convert.hpp"
#include "gil.hpp"
#include "prial/simd.hpp"
#include "register.hpp"

namespace prial::bindings {

void register_kernels(py::module_& m) {
  m.def("simd_level", [] { return std::string(simd_level_name(prial::simd_level())); },
        "simd_level()\n--\n\n"
        "Instruction-set level of the batch kernels in use: 'scalar', 'avx2' or 'avx512'.");
  m.def("supported_simd_level", [] { return std::string(simd_level_name(prial::supported_simd_level())); },
        "supported_simd_level()\n--\n\n"
        "Highest instruction-set level this CPU supports.");
  // Every level's name, lowest first: the one list the benchmarks and tests use.
  m.attr("SIMD_LEVELS") = py::make_tuple(simd_level_name(SimdLevel::kScalar), simd_level_name(SimdLevel::kAvx2),
                                         simd_level_name(SimdLevel::kAvx512));
  m.def("set_simd_level", &prial::set_simd_level, py::arg("level"),
        "set_simd_level(level)\n--\n\n"
        "Forces the batch-kernel level (tests and benchmarks only; process-wide).");
  m.def(
      "streaming_floor",
      [](const py::object& hands, const std::string& level) {
        const py::array a = hand_array(hands, 3, "hands");
        const StreamingFloor floor = streaming_floor(level);
        const auto rows = static_cast<std::size_t>(a.shape(0));
        py::array_t<std::uint16_t> out(static_cast<py::ssize_t>(rows));
        const auto* in = static_cast<const Card*>(a.data());
        std::uint16_t* dst = out.mutable_data();
        // Released at every size, so that its cost matches evaluate_batch's on large batches.
        without_gil([&] { floor(in, rows, dst); });
        return out;
      },
      py::arg("hands"), py::arg("level"),
      "streaming_floor(hands, level)\n--\n\n"
      "uint16 sums of each row's three bytes, by the streaming-floor loop built for `level` (benchmarks): "
      "the traffic of evaluate_batch with almost none of its work.  Any byte values; the level must be one "
      "this CPU has, whatever level is in use.");
}

}  // namespace prial::bindings
