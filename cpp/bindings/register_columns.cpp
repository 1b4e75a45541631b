// Text columns (prial score): Arrow string buffers in, card arrays out.
#include <cstdint>
#include <string>

#include "convert.hpp"
#include "gil.hpp"
#include "prial/cancel.hpp"
#include "prial/cards.hpp"
#include "register.hpp"

namespace prial::bindings {
namespace {

// A read-only view of a buffer-protocol object (a pyarrow.Buffer), or an
// empty view for None (Arrow omits the validity buffer when nothing is null).
struct BufferView {
  py::buffer_info info;
  const void* ptr = nullptr;
  std::size_t size = 0;
};
BufferView buffer_view(const py::object& value) {
  BufferView view;
  if (value.is_none()) return view;
  view.info = py::reinterpret_borrow<py::buffer>(value).request();
  view.ptr = view.info.ptr;
  view.size = static_cast<std::size_t>(view.info.size * view.info.itemsize);
  return view;
}

py::tuple parse_text_column(const py::object& validity, const py::object& offsets, const py::object& data,
                            bool large_offsets, std::int64_t offset, std::size_t rows, std::size_t width,
                            int pack_size, const py::object& threads, const CancelFlag* cancel) {
  const BufferView valid_view = buffer_view(validity), offsets_view = buffer_view(offsets),
                   data_view = buffer_view(data);
  const std::size_t offset_bytes = large_offsets ? 8 : 4;
  if (offset < 0 || (rows > 0 && offsets_view.size < (static_cast<std::size_t>(offset) + rows + 1) * offset_bytes)) {
    throw InvalidHand("text column: offsets buffer too small for " + std::to_string(rows) + " rows");
  }
  static const char kEmpty = 0;
  TextColumn column;
  column.offsets = offsets_view.ptr;
  column.large_offsets = large_offsets;
  column.data = data_view.ptr ? static_cast<const char*>(data_view.ptr) : &kEmpty;
  column.validity = static_cast<const std::uint8_t*>(valid_view.ptr);
  column.offset = offset;
  column.rows = rows;
  const int n_threads = thread_count(threads);
  py::array_t<std::uint8_t> cards({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(width)});
  py::array_t<std::uint8_t> counts(static_cast<py::ssize_t>(rows));
  py::array_t<std::uint8_t> status(static_cast<py::ssize_t>(rows));
  py::array_t<std::uint8_t> where(static_cast<py::ssize_t>(rows));
  without_gil([&] {
    parse_cards_column(column, width, pack_size, cards.mutable_data(), counts.mutable_data(),
                       reinterpret_cast<ParseStatus*>(status.mutable_data()), where.mutable_data(), n_threads,
                       cancel);
  });
  return py::make_tuple(cards, counts, status, where);
}

}  // namespace

void register_columns(py::module_& m) {
  m.def("parse_text_column", &parse_text_column, py::arg("validity"), py::arg("offsets"), py::arg("data"),
        py::kw_only(), py::arg("large_offsets"), py::arg("offset"), py::arg("rows"), py::arg("width"),
        py::arg("pack_size"), py::arg("threads") = py::none(), py::arg("cancel") = py::none(),
        "parse_text_column(validity, offsets, data, *, large_offsets, offset, rows, width, pack_size, "
        "threads=None, cancel=None)\n--\n\n"
        "Parses an Arrow string column's buffers: (cards uint8 (N, width), counts uint8 (N,), status uint8 "
        "(N,), where uint8 (N,)).  cancel: a CancelFlag; cancel() from another thread stops the work "
        "(CancelledError).");
  m.def("text_hand_problem",
        [](const std::string& text, std::size_t width, int pack_size) {
          return text_hand_problem(text, width, pack_size);
        },
        py::arg("text"), py::arg("width"), py::arg("pack_size"),
        "text_hand_problem(text, width, pack_size)\n--\n\n"
        "Why the card text of one row was rejected, in words (\"\" if it was not).");
  // The status of a missing row, which Python words itself ("cards missing").
  m.attr("PARSE_NULL") = static_cast<int>(ParseStatus::kNull);
}

}  // namespace prial::bindings
