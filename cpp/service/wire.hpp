// Protocol buffers' wire format, the parts prial.v1's hand-written
// encoders and readers use: varints, tags and length-delimited fields
// (https://protobuf.dev/programming-guides/encoding/).  Internal to the
// service library; every field number its users write is named there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace prial::service::wire {

enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

constexpr std::uint64_t tag(std::uint32_t field, WireType type) {
  return static_cast<std::uint64_t>(field) << 3 | type;
}

constexpr std::size_t varint_size(std::uint64_t value) {
  std::size_t n = 1;
  for (; value >= 0x80; value >>= 7) ++n;
  return n;
}

// The size of a length-delimited field of `length` bytes (a one-byte tag:
// fields 1 to 15), or 0 for an empty one, which proto3 leaves out.
constexpr std::size_t bytes_field_size(std::size_t length) {
  return length ? 1 + varint_size(length) + length : 0;
}

// Writes a varint at `out`, returning the end: for encoders that size
// their message first and write into one buffer.
inline char* put_varint(char* out, std::uint64_t value) {
  for (; value >= 0x80; value >>= 7) *out++ = static_cast<char>((value & 0x7f) | 0x80);
  *out++ = static_cast<char>(value);
  return out;
}

inline char* put_tag(char* out, std::uint32_t field, WireType type) { return put_varint(out, tag(field, type)); }

// Reads a varint at `pos`; false if it runs past the end or over 10 bytes.
inline bool read_varint(std::string_view data, std::size_t& pos, std::uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64 && pos < data.size(); shift += 7) {
    const auto byte = static_cast<unsigned char>(data[pos++]);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return true;
  }
  return false;
}

// A message built field by field into a string, for encoders of small,
// nested messages.  proto3: a field at its default is left out, except
// where `present_*` says it is an `optional` field that is set.
class Writer {
 public:
  void uint(std::uint32_t field, std::uint64_t value) {
    if (value == 0) return;
    varint(tag(field, kVarint));
    varint(value);
  }
  void text(std::uint32_t field, std::string_view value) {
    if (!value.empty()) length_delimited(field, value);
  }
  void present_text(std::uint32_t field, std::string_view value) { length_delimited(field, value); }
  void message(std::uint32_t field, const Writer& inner) { length_delimited(field, inner.out_); }

  std::string take() { return std::move(out_); }

 private:
  void varint(std::uint64_t value) {
    for (; value >= 0x80; value >>= 7) out_ += static_cast<char>((value & 0x7f) | 0x80);
    out_ += static_cast<char>(value);
  }
  void length_delimited(std::uint32_t field, std::string_view value) {
    varint(tag(field, kLengthDelimited));
    varint(value.size());
    out_.append(value);
  }

  std::string out_;
};

}  // namespace prial::service::wire
