// Shared by the libFuzzer harnesses of cpp/fuzz/: a deterministic reader
// of the fuzz bytes, the rulesets the harnesses pick from, and FUZZ_CHECK,
// which aborts (a finding libFuzzer saves as crash-<sha1>) when an
// invariant fails.
//
// Each harness is one fuzz_<name>.cpp defining LLVMFuzzerTestOneInput; the
// build (cmake -DPRIAL_FUZZ=ON, clang) makes one executable per file and
// tools/fuzz.py runs every one of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "prial/bestof.hpp"
#include "prial/cards.hpp"
#include "prial/evaluator.hpp"
#include "prial/simd.hpp"
#include "prial/rules.hpp"

#define FUZZ_CHECK(cond)                                                                    \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);     \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

namespace prial_fuzz {

// Past the end every read gives zeros, so any byte string is an input.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool flag() { return byte() & 1; }
  // An integer in [lo, hi], inclusive (hi - lo < 2**32).
  std::uint64_t in(std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t span = hi - lo + 1;
    std::uint64_t v = 0;
    for (std::uint64_t s = span - 1; s; s >>= 8) v = (v << 8) | byte();
    return lo + (span ? v % span : v);
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | byte();
    return v;
  }
  std::string bytes(std::size_t n) {
    std::string out;
    while (n-- && pos_ < size_) out.push_back(static_cast<char>(data_[pos_++]));
    return out;
  }
  std::size_t remaining() const { return size_ - pos_; }
  const std::uint8_t* here() const { return data_ + pos_; }
  void skip(std::size_t n) { pos_ += std::min(n, remaining()); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// A handful of rulesets covering the table builder's branches (wild cards,
// jokers, lowball, category orders).  Few on purpose: each one's tables are
// built once, on first use, and cached by the core.
inline const std::vector<prial::RulesConfig>& rulesets() {
  static const std::vector<prial::RulesConfig> all = [] {
    std::vector<prial::RulesConfig> out;
    out.emplace_back();  // standard Brag
    prial::RulesConfig poker;
    poker.ace_two_three = prial::AceTwoThree::Bottom;
    poker.top_prial = prial::TopPrial::Ace;
    poker.running_flush_over_prial = true;
    out.push_back(poker);
    prial::RulesConfig muflis;
    muflis.lowball = true;
    muflis.ace_two_three = prial::AceTwoThree::Second;
    out.push_back(muflis);
    prial::RulesConfig wild;
    wild.jokers = 3;
    wild.wild_mask = 0xFULL | (1ULL << 51);  // the deuces and the ace of spades
    wild.wild_ties = prial::WildTies::Equal;
    out.push_back(wild);
    prial::RulesConfig classic;  // classic Brag's bragging, the jacks of clubs and diamonds as braggers
    classic.runs_and_flushes = false;
    classic.top_prial = prial::TopPrial::Ace;
    classic.wild_mask = (1ULL << 36) | (1ULL << 37);
    classic.lesser_wild_mask = 1ULL << 37;  // the jack of diamonds, the lesser
    classic.wild_ties = prial::WildTies::NaturalPrials;
    out.push_back(classic);
    return out;
  }();
  return all;
}

inline const prial::RulesConfig& pick_rules(Input& in) {
  return rulesets()[in.in(0, rulesets().size() - 1)];
}

// The evaluator of a ruleset of rulesets(), kept for the whole run.
inline const prial::Evaluator& evaluator(const prial::RulesConfig& rules) {
  static std::vector<std::unique_ptr<prial::Evaluator>> cache(rulesets().size());
  const std::size_t i = static_cast<std::size_t>(&rules - rulesets().data());
  if (!cache[i]) cache[i] = std::make_unique<prial::Evaluator>(rules);
  return *cache[i];
}

// Picks one of the batch kernels this CPU has (scalar, AVX2, AVX-512).
inline void pick_simd_level(Input& in) {
  const auto top = static_cast<std::uint64_t>(prial::supported_simd_level());
  prial::set_simd_level(prial::simd_level_name(static_cast<prial::SimdLevel>(in.in(0, top))));
}

// A card byte: mostly in the pack (jokers included), sometimes any byte.
inline prial::Card card(Input& in, int pack) {
  const std::uint8_t b = in.byte();
  return b < 240 ? static_cast<prial::Card>(b % pack) : in.byte();
}

// The naive reference for a hand's validity: in the pack, no repeats.
inline bool hand_valid(const prial::Card* cards, std::size_t count, int pack) {
  for (std::size_t i = 0; i < count; ++i) {
    if (cards[i] >= pack) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (cards[i] == cards[j]) return false;
    }
  }
  return true;
}

}  // namespace prial_fuzz
