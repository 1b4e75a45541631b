// The gRPC service's hot small call: a decided showdown as a serialized
// prial.v1.ShowdownResponse (prial_service, showdown_response.hpp).
#include <optional>
#include <string>

#include "convert.hpp"
#include "prial/service/showdown_response.hpp"
#include "prial/showdown.hpp"
#include "py_evaluator.hpp"
#include "register.hpp"

namespace prial::bindings {
namespace {

py::bytes encode(PyEvaluator& ev, const py::sequence& players, const std::optional<std::string>& seer,
                 const std::optional<std::string>& coverer, std::size_t cards_per_hand, std::uint64_t pot,
                 std::uint64_t old_pot) {
  const ShowdownCall call = showdown_call(players, seer, coverer, cards_per_hand, pot, old_pot);
  return service::encode_showdown_response(call, decide_showdown(ev.core(), ev.best_of_table(), call), ev.core().table());
}

}  // namespace

void register_service(py::module_& m) {
  m.def("encode_showdown_response", &encode, py::arg("evaluator"), py::arg("players"), py::arg("seer"),
        py::arg("coverer"), py::arg("cards_per_hand"), py::arg("pot"), py::arg("old_pot"),
        "encode_showdown_response(evaluator, players, seer, coverer, cards_per_hand, pot, old_pot)\n--\n\n"
        "decide_showdown's decision as a serialized prial.v1.ShowdownResponse (bytes).");
}

}  // namespace prial::bindings
