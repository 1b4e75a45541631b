// The service's undecoded look at a request (field_census) on arbitrary
// bytes: the first byte picks the field and the length limit, the rest is
// the message.  Invariants: every counted entry took at least two bytes;
// the first too-long entry is one of the counted ones and is too long; no
// limit means none is too long; a well-formed message followed by one more
// entry of the field (the wire form concatenates) counts one more, is
// still well formed, and keeps its first too-long entry.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "prial/service/field_census.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint32_t field = 1 + data[0] % 6;
  const std::size_t max_length = data[0] >> 3;
  const std::string message(reinterpret_cast<const char*>(data) + 1, size - 1);
  using prial::service::field_census;
  const auto census = field_census(message, field, max_length);
  FUZZ_CHECK(2 * census.count <= message.size());
  FUZZ_CHECK(census.first_too_long < static_cast<std::int64_t>(census.count));
  if (census.first_too_long >= 0) FUZZ_CHECK(census.too_long_length > max_length);
  const auto unlimited = field_census(message, field, std::numeric_limits<std::size_t>::max());
  FUZZ_CHECK(unlimited.count == census.count && unlimited.well_formed == census.well_formed);
  FUZZ_CHECK(unlimited.first_too_long == -1);
  if (!census.well_formed) return 0;
  std::string longer = message;
  longer += static_cast<char>(field << 3 | 2);  // one more length-delimited entry of the field, empty
  longer += '\0';
  const auto more = field_census(longer, field, max_length);
  FUZZ_CHECK(more.well_formed && more.count == census.count + 1);
  FUZZ_CHECK(more.first_too_long == census.first_too_long && more.too_long_length == census.too_long_length);
  return 0;
}
