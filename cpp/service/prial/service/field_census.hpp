// A look at a serialized request before it is decoded: how many times one
// top-level field occurs, and its first entry longer than a limit.  The
// service checks repeated fields against their limits with this (the GIL
// released) so that an oversize request is refused in milliseconds rather
// than decoded first: decoding 31M empty strings held the GIL for seconds.
// Protocol-buffers wire form only, no message types: prial_service.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace prial::service {

struct FieldCensus {
  std::size_t count = 0;  // occurrences of the field (top level)
  // The first occurrence whose length-delimited payload is longer than the
  // limit: its index among the field's occurrences and its length; -1 if none.
  std::int64_t first_too_long = -1;
  std::size_t too_long_length = 0;
  // False if the bytes stop being a well-formed message somewhere: the
  // counts cover the part before, and decoding will name the problem.
  bool well_formed = true;
};

// The census of field number `field` in the serialized message `data`
// (top level only; nested messages are skipped whole).
FieldCensus field_census(std::string_view data, std::uint32_t field, std::size_t max_length);

}  // namespace prial::service
