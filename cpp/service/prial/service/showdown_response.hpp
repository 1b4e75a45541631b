// The prial.v1 wire form (protocol buffers, protos/prial/v1/prial.proto) of
// the one result the service builds on its hottest small call: a decided
// showdown as a ShowdownResponse.  Kept out of the core (prial_core knows
// no message or field number): this is the service's own library,
// prial_service.  Encoding it here costs a fraction of a
// microsecond; building the message field by field in Python cost more
// than the whole decision.  tests/test_grpc_rpcs.py holds the encoding to
// the message the generic Python converter builds from prial.showdown's
// result, every field exercised, so a change to the .proto that this file
// misses fails there.
#pragma once

#include <string>

#include "prial/showdown.hpp"

namespace prial::service {

// The serialized ShowdownResponse for `out`, decided from `call` under the
// ruleset of `three` (descriptions come from its table).
std::string encode_showdown_response(const ShowdownCall& call, const ShowdownOutcome& out,
                                     const ThreeCardTable& three);

}  // namespace prial::service
