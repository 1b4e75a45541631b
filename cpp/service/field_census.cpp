#include "prial/service/field_census.hpp"

#include "wire.hpp"

namespace prial::service {

using wire::kFixed32;
using wire::kFixed64;
using wire::kLengthDelimited;
using wire::kVarint;
using wire::read_varint;

FieldCensus field_census(std::string_view data, std::uint32_t field, std::size_t max_length) {
  FieldCensus census;
  std::size_t pos = 0;
  while (pos < data.size()) {
    std::uint64_t tag = 0;
    if (!read_varint(data, pos, tag) || (tag >> 3) == 0) {
      census.well_formed = false;
      return census;
    }
    std::uint64_t length = 0;
    switch (static_cast<std::uint32_t>(tag & 7)) {
      case kVarint:
        if (!read_varint(data, pos, length)) census.well_formed = false;
        length = 0;
        break;
      case kFixed64:
        length = 8;
        break;
      case kFixed32:
        length = 4;
        break;
      case kLengthDelimited:
        if (!read_varint(data, pos, length)) census.well_formed = false;
        break;
      default:  // groups (deprecated, unused by prial.v1) and invalid types
        census.well_formed = false;
    }
    if (!census.well_formed || length > data.size() - pos) {
      census.well_formed = false;
      return census;
    }
    if ((tag >> 3) == field) {
      if (length > max_length && census.first_too_long < 0) {
        census.first_too_long = static_cast<std::int64_t>(census.count);
        census.too_long_length = static_cast<std::size_t>(length);
      }
      ++census.count;
    }
    pos += static_cast<std::size_t>(length);
  }
  return census;
}

}  // namespace prial::service
