// The gRPC service's native part (prial_service): its hot small call, a
// decided showdown as a serialized prial.v1.ShowdownResponse
// (showdown_response.hpp); its big one, a batch ranked straight into a
// serialized EvaluateResponse (evaluate_response.hpp); and the census of a
// request's repeated field before it is decoded (field_census.hpp).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "convert.hpp"
#include "gil.hpp"
#include "prial/service/evaluate_response.hpp"
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

py::bytes encode_evaluate(PyEvaluator& ev, const py::object& hands, std::uint64_t batch_index,
                          const py::object& threads, const CancelFlag* cancel) {
  const py::array a = hand_array_of_widths(hands, {3, 4, 5}, "hands", "3, 4 or 5");
  const auto rows = static_cast<std::size_t>(a.shape(0));
  const auto width = static_cast<std::size_t>(a.shape(1));
  const int n_threads = thread_count(threads);
  const auto* in = static_cast<const Card*>(a.data());
  // Uninitialized (the kernel writes every row): zeroing them cost more
  // than writing the response.
  const std::unique_ptr<Strength[]> strengths(width == 3 ? new Strength[rows] : nullptr);
  const std::unique_ptr<BestKey[]> keys(width == 3 ? nullptr : new BestKey[rows]);
  service::BatchRanks ranks;
  ranks.rows = rows;
  ranks.strengths = strengths.get();
  ranks.keys = keys.get();
  ranks.category_of_strength = ev.category_codes().data();
  ranks.batch_index = batch_index;
  auto out = py::reinterpret_steal<py::bytes>(
      PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(service::evaluate_response_size(ranks))));
  if (!out) throw py::error_already_set();
  char* dst = PyBytes_AS_STRING(out.ptr());
  const std::size_t bad = without_gil(
      [&] {
        const std::size_t first_bad =
            width == 3 ? ev.core().evaluate_batch(in, rows, strengths.get(), n_threads, cancel)
                       : ev.best_of_table().key_batch(in, rows, width, keys.get(), n_threads, cancel);
        if (first_bad == kNoBadRow) service::write_evaluate_response(ranks, dst);
        return first_bad;
      },
      worth_releasing_gil(rows));
  if (bad != kNoBadRow) throw InvalidHand(ev.core().explain_row(in, bad, width), static_cast<long long>(bad));
  return out;
}

std::tuple<std::size_t, std::int64_t, std::size_t, bool> census(const py::bytes& data, std::uint32_t field,
                                                               std::size_t max_length) {
  char* buffer = nullptr;
  Py_ssize_t size = 0;
  PyBytes_AsStringAndSize(data.ptr(), &buffer, &size);
  const std::string_view view(buffer, static_cast<std::size_t>(size));
  // A walk over tens of MB at most, in a bytes object the caller holds.
  const service::FieldCensus c = without_gil([&] { return service::field_census(view, field, max_length); });
  return {c.count, c.first_too_long, c.too_long_length, c.well_formed};
}

}  // namespace

void register_service(py::module_& m) {
  m.def("encode_showdown_response", &encode, py::arg("evaluator"), py::arg("players"), py::arg("seer"),
        py::arg("coverer"), py::arg("cards_per_hand"), py::arg("pot"), py::arg("old_pot"),
        "encode_showdown_response(evaluator, players, seer, coverer, cards_per_hand, pot, old_pot)\n--\n\n"
        "decide_showdown's decision as a serialized prial.v1.ShowdownResponse (bytes).");
  m.def("encode_evaluate_response", &encode_evaluate, py::arg("evaluator"), py::arg("hands"), py::kw_only(),
        py::arg("batch_index") = 0, py::arg("threads") = py::none(), py::arg("cancel") = nullptr,
        "encode_evaluate_response(evaluator, hands, *, batch_index=0, threads=None, cancel=None)\n--\n\n"
        "The hands (uint8 array (N, 3|4|5)) ranked as by evaluate_batch or best_of_batch, as a serialized "
        "prial.v1.EvaluateResponse: count, strengths, keys (4 and 5 cards), categories and batch_index "
        "(descriptions are not included).  Bad hands raise InvalidHandError naming the row.");
  m.def("field_census", &census, py::arg("data"), py::arg("field"), py::arg("max_length"),
        "field_census(data, field, max_length)\n--\n\n"
        "(count, first_too_long, too_long_length, well_formed) of the serialized message ``data``, undecoded: how many times top-level field number ``field`` "
        "occurs, the index and length of its first occurrence longer than ``max_length`` bytes (-1, 0 if "
        "none), and whether the bytes are well formed (if not, the counts cover the part before the "
        "fault).  Runs without the GIL.");
}

}  // namespace prial::bindings
