// The gRPC service's native part (prial_service): its hot small call, a
// decided showdown as a serialized prial.v1.ShowdownResponse
// (showdown_response.hpp), and the census of a request's repeated field
// before it is decoded (field_census.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "convert.hpp"
#include "prial/service/field_census.hpp"
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

std::tuple<std::size_t, std::int64_t, std::size_t, bool> census(const py::bytes& data, std::uint32_t field,
                                                               std::size_t max_length) {
  char* buffer = nullptr;
  Py_ssize_t size = 0;
  PyBytes_AsStringAndSize(data.ptr(), &buffer, &size);
  const std::string_view view(buffer, static_cast<std::size_t>(size));
  service::FieldCensus c;
  {
    // A walk over tens of MB at most; bytes objects are immutable and the
    // caller holds this one, so reading it needs no GIL.
    py::gil_scoped_release release;
    c = service::field_census(view, field, max_length);
  }
  return {c.count, c.first_too_long, c.too_long_length, c.well_formed};
}

}  // namespace

void register_service(py::module_& m) {
  m.def("encode_showdown_response", &encode, py::arg("evaluator"), py::arg("players"), py::arg("seer"),
        py::arg("coverer"), py::arg("cards_per_hand"), py::arg("pot"), py::arg("old_pot"),
        "encode_showdown_response(evaluator, players, seer, coverer, cards_per_hand, pot, old_pot)\n--\n\n"
        "decide_showdown's decision as a serialized prial.v1.ShowdownResponse (bytes).");
  m.def("field_census", &census, py::arg("data"), py::arg("field"), py::arg("max_length"),
        "field_census(data: bytes, field: int, max_length: int) -> tuple[int, int, int, bool]\n--\n\n"
        "Without decoding the serialized message ``data``: how many times top-level field number ``field`` "
        "occurs, the index and length of its first occurrence longer than ``max_length`` bytes (-1, 0 if "
        "none), and whether the bytes are well formed (if not, the counts cover the part before the "
        "fault).  Runs without the GIL.");
}

}  // namespace prial::bindings
