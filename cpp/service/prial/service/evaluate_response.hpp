// The prial.v1 wire form of a batch's ranks, an EvaluateResponse, written
// straight from the kernel's results into the one buffer that is sent.
// Through message objects a 1M-hand batch was copied four times and its
// categories looked up with 8-byte indices: more of the server's time than
// ranking the hands.  tests/internal/test_evaluate_message.py holds this
// encoding to the generated message's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "prial/bestof.hpp"
#include "prial/tables.hpp"

namespace prial::service {

struct BatchRanks {
  std::size_t rows = 0;
  // Exactly one of the two: three-card strengths, or best-of keys (4 and 5
  // cards), whose strength is strength_of_key(key).
  const Strength* strengths = nullptr;
  const BestKey* keys = nullptr;
  // The Category code of each strength (categories_by_strength).
  const std::uint8_t* category_of_strength = nullptr;
  std::uint64_t batch_index = 0;  // a stream's batch; 0 for a unary call
};

// The serialized size of the EvaluateResponse of `ranks` (no descriptions).
std::size_t evaluate_response_size(const BatchRanks& ranks);

// Writes that response into `out`, evaluate_response_size(ranks) bytes.
void write_evaluate_response(const BatchRanks& ranks, char* out);

}  // namespace prial::service
