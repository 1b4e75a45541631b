// The Arrow text column parser (parse_cards_column) on columns built from
// the fuzz bytes: int32 or int64 offsets, a slice offset, offsets that do
// not start at 0, a validity bitmap with nulls, any width and pack.  Every
// buffer is allocated at exactly the size Arrow would give it, so ASan
// sees any read or write past it.  Invariants, row by row against the
// scalar path: null rows are kNull; a row is kOk exactly when
// text_hand_problem finds nothing; a kOk row holds parse_cards' cards
// (the rest 0xFF); a rejected row names a card 1..width+1.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "prial/cards.hpp"

namespace {

template <typename Offset>
std::unique_ptr<Offset[]> offsets_buffer(const std::vector<std::int64_t>& values) {
  auto out = std::make_unique<Offset[]>(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<Offset>(values[i]);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  prial_fuzz::Input in(data, size);
  const bool large = in.flag();
  const bool has_validity = in.flag();
  const std::size_t slice = in.in(0, 9);           // the array's own offset
  const std::size_t rows = in.in(0, 40);
  const std::size_t width = in.in(0, 7);
  const int pack = static_cast<int>(in.in(prial::kStandardPack, prial::kMaxPack));
  const int threads = static_cast<int>(in.in(1, 3));
  // offsets[0]: Arrow lets a column start anywhere in its data buffer.
  const std::int64_t base = static_cast<std::int64_t>(in.in(0, 16));

  // Offsets of slice + rows entries: each row's length from one byte, the
  // text taken in order from the bytes after this header (then zeros).
  const std::size_t entries = slice + rows;
  std::vector<std::int64_t> offsets(entries + 1);
  offsets[0] = base;
  std::vector<std::uint8_t> lengths(entries);
  for (auto& l : lengths) l = static_cast<std::uint8_t>(in.in(0, 24));
  std::vector<std::uint8_t> bits((entries + 7) / 8);
  for (auto& b : bits) b = has_validity ? in.byte() | in.byte() : 0xFF;  // mostly valid
  for (std::size_t i = 0; i < entries; ++i) offsets[i + 1] = offsets[i] + lengths[i];
  const std::size_t data_size = static_cast<std::size_t>(offsets[entries]);
  auto text = std::make_unique<char[]>(data_size + 1);  // +1: never a zero-size allocation
  for (std::size_t i = 0; i < data_size; ++i) text[i] = static_cast<char>(in.byte());

  std::unique_ptr<std::int32_t[]> small_offsets;
  std::unique_ptr<std::int64_t[]> large_offsets;
  prial::TextColumn column;
  if (large) {
    large_offsets = offsets_buffer<std::int64_t>(offsets);
    column.offsets = large_offsets.get();
  } else {
    small_offsets = offsets_buffer<std::int32_t>(offsets);
    column.offsets = small_offsets.get();
  }
  column.large_offsets = large;
  column.data = text.get();
  std::unique_ptr<std::uint8_t[]> validity;
  if (has_validity) {
    validity = std::make_unique<std::uint8_t[]>(bits.size());
    std::copy(bits.begin(), bits.end(), validity.get());
    column.validity = validity.get();
  }
  column.offset = static_cast<std::int64_t>(slice);
  column.rows = rows;

  // Outputs at their exact sizes (+1 byte so that an empty one is still a
  // real allocation; ASan's redzone follows the last byte).
  auto cards = std::make_unique<prial::Card[]>(rows * width + 1);
  auto counts = std::make_unique<std::uint8_t[]>(rows + 1);
  auto status = std::make_unique<prial::ParseStatus[]>(rows + 1);
  auto where = std::make_unique<std::uint8_t[]>(rows + 1);
  prial::parse_cards_column(column, width, pack, cards.get(), counts.get(), status.get(), where.get(), threads);

  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t i = slice + r;
    const bool valid = !has_validity || ((bits[i >> 3] >> (i & 7)) & 1);
    const prial::ParseStatus st = status[r];
    if (!valid) {
      FUZZ_CHECK(st == prial::ParseStatus::kNull);
      continue;
    }
    FUZZ_CHECK(st != prial::ParseStatus::kNull);
    const std::string_view row(text.get() + offsets[i], static_cast<std::size_t>(lengths[i]));
    const std::string problem = prial::text_hand_problem(row, width, pack);
    FUZZ_CHECK((st == prial::ParseStatus::kOk) == problem.empty());
    FUZZ_CHECK(counts[r] <= width);
    const prial::Card* hand = cards.get() + r * width;
    for (std::size_t k = counts[r]; k < width; ++k) FUZZ_CHECK(hand[k] == 0xFF);
    std::vector<prial::Card> scalar;
    bool parsed = true;
    try {
      scalar = prial::parse_cards(row);
    } catch (const prial::InvalidHand&) {
      parsed = false;
    }
    if (st == prial::ParseStatus::kOk) {
      FUZZ_CHECK(where[r] == 0);
      FUZZ_CHECK(parsed && scalar == std::vector<prial::Card>(hand, hand + counts[r]));
      FUZZ_CHECK(prial_fuzz::hand_valid(hand, counts[r], pack));
      continue;
    }
    FUZZ_CHECK(where[r] >= 1 && where[r] <= width + 1);
    if (parsed && scalar.size() > width) {
      FUZZ_CHECK(st == prial::ParseStatus::kTooManyCards);
    } else if (parsed) {
      // The text parses and fits: only the hand itself can be wrong.
      FUZZ_CHECK(st == prial::ParseStatus::kDuplicate || st == prial::ParseStatus::kNotInPack);
      FUZZ_CHECK(!prial_fuzz::hand_valid(scalar.data(), scalar.size(), pack));
      FUZZ_CHECK(std::vector<prial::Card>(hand, hand + counts[r]) == scalar);
    } else {
      FUZZ_CHECK(st != prial::ParseStatus::kDuplicate && st != prial::ParseStatus::kNotInPack);
    }
  }
  return 0;
}
