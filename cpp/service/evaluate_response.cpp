#include "prial/service/evaluate_response.hpp"

#include <cstring>

#include "wire.hpp"

namespace prial::service {
namespace {

using wire::bytes_field_size;
using wire::kLengthDelimited;
using wire::kVarint;
using wire::put_tag;
using wire::put_varint;
using wire::varint_size;

// Field numbers of prial.v1.EvaluateResponse, written in this order (as
// the generated code does); fields at their default are left out.
namespace evaluate_response {
constexpr std::uint32_t kCount = 1, kStrengths = 2, kKeys = 3, kCategories = 4, kBatchIndex = 6;
}
using namespace evaluate_response;

// `n` values as little-endian bytes at `out`: a copy on little-endian
// machines.  Separate loops per case, with locals only, so the compiler
// keeps pointers in registers (writes through char* may alias anything).
template <typename T>
void put_le(char* out, const T* values, std::size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(out, values, n * sizeof(T));
#else
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < sizeof(T); ++b) out[i * sizeof(T) + b] = static_cast<char>(values[i] >> (8 * b));
#endif
}

}  // namespace

std::size_t evaluate_response_size(const BatchRanks& r) {
  std::size_t size = r.rows ? 1 + varint_size(r.rows) : 0;
  size += bytes_field_size(2 * r.rows) + bytes_field_size(r.rows);
  if (r.keys) size += bytes_field_size(4 * r.rows);
  if (r.batch_index) size += 1 + varint_size(r.batch_index);
  return size;
}

void write_evaluate_response(const BatchRanks& r, char* out) {
  const std::size_t n = r.rows;
  if (n) {
    out = put_varint(put_tag(out, kCount, kVarint), n);
    char* strengths = put_varint(put_tag(out, kStrengths, kLengthDelimited), 2 * n);
    out = strengths + 2 * n;
    char* keys = nullptr;
    if (r.keys) {
      keys = put_varint(put_tag(out, kKeys, kLengthDelimited), 4 * n);
      out = keys + 4 * n;
    }
    char* categories = put_varint(put_tag(out, kCategories, kLengthDelimited), n);
    out = categories + n;
    const std::uint8_t* category_of = r.category_of_strength;
    auto* category = reinterpret_cast<std::uint8_t*>(categories);
    if (r.keys) {
      const BestKey* key = r.keys;
      put_le(keys, key, n);
      for (std::size_t i = 0; i < n; ++i) {
        const Strength s = strength_of_key(key[i]);
        strengths[2 * i] = static_cast<char>(s & 0xff);
        strengths[2 * i + 1] = static_cast<char>(s >> 8);
        category[i] = category_of[s];
      }
    } else {
      const Strength* strength = r.strengths;
      put_le(strengths, strength, n);
      for (std::size_t i = 0; i < n; ++i) category[i] = category_of[strength[i]];
    }
  }
  if (r.batch_index) put_varint(put_tag(out, kBatchIndex, kVarint), r.batch_index);
}

}  // namespace prial::service
