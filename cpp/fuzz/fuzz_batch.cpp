// The batch entry points on arbitrary rows: Evaluator::evaluate_batch,
// BestOfTable::key_batch, showdown_batch and Partitioner::split_batch, with
// the kernel (scalar, AVX2, AVX-512), ruleset, width, thread count and rows
// chosen by the fuzz bytes; rows are mostly valid hands with some bytes
// anywhere.  Invariants: the reported bad row is exactly the first row the
// naive check rejects (kNoBadRow when none), and every row before it
// equals the scalar path (slot/key/split of that one hand).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "prial/bestof.hpp"
#include "prial/partition.hpp"
#include "prial/showdown.hpp"

namespace {

using prial::Card;

std::vector<Card> rows_of(prial_fuzz::Input& in, std::size_t rows, std::size_t width, int pack) {
  std::vector<Card> cards(rows * width);
  for (std::size_t r = 0; r < rows; ++r) {
    Card* hand = &cards[r * width];
    const bool raw = in.byte() >= 240;  // now and then a row of any bytes
    for (std::size_t k = 0; k < width; ++k) {
      hand[k] = raw ? in.byte() : static_cast<Card>(in.byte() % pack);
      // Mostly distinct cards: step past a repeat unless the bytes insist.
      for (std::size_t j = 0; !raw && j < k; ++j) {
        if (hand[j] == hand[k]) {
          hand[k] = static_cast<Card>((hand[k] + 1) % pack);
          j = static_cast<std::size_t>(-1);
        }
      }
    }
  }
  return cards;
}

std::size_t first_bad(const std::vector<Card>& cards, std::size_t rows, std::size_t width, int pack) {
  for (std::size_t r = 0; r < rows; ++r) {
    if (!prial_fuzz::hand_valid(&cards[r * width], width, pack)) return r;
  }
  return prial::kNoBadRow;
}

void evaluate(prial_fuzz::Input& in, const prial::RulesConfig& rules, int threads) {
  const prial::Evaluator& ev = prial_fuzz::evaluator(rules);
  const std::size_t rows = in.in(0, 200);
  const std::vector<Card> hands = rows_of(in, rows, 3, rules.pack_size());
  std::vector<prial::Strength> out(rows);
  const std::size_t bad = ev.evaluate_batch(hands.data(), rows, out.data(), threads);
  FUZZ_CHECK(bad == first_bad(hands, rows, 3, rules.pack_size()));
  for (std::size_t r = 0; r < rows && r < bad; ++r) {
    FUZZ_CHECK(out[r] == ev.table().strength(ev.slot(&hands[3 * r], 3)));
  }
  if (bad != prial::kNoBadRow) FUZZ_CHECK(ev.explain_row(hands.data(), bad, 3).rfind("row ", 0) == 0);
}

void keys(prial_fuzz::Input& in, const prial::RulesConfig& rules, int threads) {
  const auto table = prial::best_of_table(rules);
  const std::size_t width = in.in(3, 5);
  const std::size_t rows = in.in(0, 200);
  const std::vector<Card> hands = rows_of(in, rows, width, rules.pack_size());
  std::vector<prial::BestKey> out(rows);
  const std::size_t bad = table->key_batch(hands.data(), rows, width, out.data(), threads);
  FUZZ_CHECK(bad == first_bad(hands, rows, width, rules.pack_size()));
  for (std::size_t r = 0; r < rows && r < bad; ++r) {
    FUZZ_CHECK(out[r] == table->key(&hands[width * r], width));
  }
}

void sees(prial_fuzz::Input& in, const prial::RulesConfig& rules, int threads) {
  const prial::Evaluator& ev = prial_fuzz::evaluator(rules);
  const auto table = prial::best_of_table(rules);
  const int pack = rules.pack_size();
  const std::size_t width = in.in(3, 5);
  const std::size_t rows = in.in(0, 120);
  const std::vector<Card> seer = rows_of(in, rows, width, pack);
  const std::vector<Card> seen = rows_of(in, rows, width, pack);
  std::vector<std::uint8_t> out(rows);
  const std::size_t bad = prial::showdown_batch(ev, *table, seer.data(), seen.data(), rows, width, out.data(),
                                                threads);
  std::size_t expected = prial::kNoBadRow;
  for (std::size_t r = 0; r < rows && expected == prial::kNoBadRow; ++r) {
    const Card* a = &seer[r * width];
    const Card* b = &seen[r * width];
    std::vector<Card> both(a, a + width);
    both.insert(both.end(), b, b + width);
    if (!prial_fuzz::hand_valid(both.data(), both.size(), pack)) expected = r;
  }
  FUZZ_CHECK(bad == expected);
  for (std::size_t r = 0; r < rows && r < bad; ++r) {
    const prial::BestKey a = table->key(&seer[r * width], width), b = table->key(&seen[r * width], width);
    FUZZ_CHECK(out[r] == (a > b ? 1 : 0));
    FUZZ_CHECK(prial::explain_showdown_row(pack, seer.data(), seen.data(), r, width).empty());
  }
  if (bad != prial::kNoBadRow) {
    FUZZ_CHECK(prial::explain_showdown_row(pack, seer.data(), seen.data(), bad, width).rfind("row ", 0) == 0);
  }
}

void splits(prial_fuzz::Input& in, const prial::RulesConfig& rules, int threads) {
  prial::PartitionOptions options;
  options.cards = static_cast<int>(in.in(prial::kMinPartitionCards - 1, prial::kMaxPartitionCards + 1));
  options.hands = static_cast<int>(in.in(prial::kMinPartitionHands - 1, prial::kMaxPartitionHands + 1));
  options.min_category = static_cast<int>(in.in(0, prial::kCategories)) - 1;
  // Lexicographic only: ExpectedPoints first builds an opponent model
  // (kModelDeals deals, about 10 s under the sanitizers) per option set,
  // which would eat a short run; tests/fuzz/fuzz_play.py covers it.
  std::unique_ptr<prial::Partitioner> partitioner;
  try {
    partitioner = std::make_unique<prial::Partitioner>(prial::three_card_table(rules), options);
  } catch (const prial::InvalidHand&) {
    FUZZ_CHECK(options.cards < prial::kMinPartitionCards || options.cards > prial::kMaxPartitionCards ||
               options.hands < prial::kMinPartitionHands || options.hands > prial::kMaxPartitionHands ||
               options.hands * 3 > options.cards);
    return;
  }
  const auto n = static_cast<std::size_t>(options.cards);
  const auto k = static_cast<std::size_t>(options.hands);
  const std::size_t rows = in.in(0, 3);  // an exact split of 15 cards takes a while
  const std::vector<Card> deals = rows_of(in, rows, n, rules.pack_size());
  std::vector<Card> hands(rows * k * 3, 0xEE);
  std::vector<prial::Strength> strengths(rows * k, 0xEEEE);
  const std::size_t bad = partitioner->split_batch(deals.data(), rows, hands.data(), strengths.data(), threads);
  FUZZ_CHECK(bad == first_bad(deals, rows, n, rules.pack_size()));
  if (bad != prial::kNoBadRow) return;
  for (std::size_t r = 0; r < rows; ++r) {
    const prial::Split s = partitioner->split(&deals[r * n], n);
    FUZZ_CHECK(s.formed <= static_cast<int>(k));
    for (std::size_t h = 0; h < k; ++h) {
      FUZZ_CHECK(strengths[r * k + h] == s.strengths[h]);
      FUZZ_CHECK((s.strengths[h] == 0) == (static_cast<int>(h) >= s.formed));
      if (h > 0) FUZZ_CHECK(s.strengths[h] <= s.strengths[h - 1]);  // strongest first
      for (std::size_t c = 0; c < 3; ++c) {
        const Card got = hands[(r * k + h) * 3 + c];
        FUZZ_CHECK(static_cast<int>(h) < s.formed ? got == s.hands[h][c] : got == prial::kNoCard);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  prial_fuzz::Input in(data, size);
  const std::uint8_t entry = in.byte() % 4;
  prial_fuzz::pick_simd_level(in);
  const prial::RulesConfig& rules = prial_fuzz::pick_rules(in);
  const int threads = static_cast<int>(in.in(1, 3));
  // Four- and five-card key tables take seconds each to build under the
  // sanitizers: only two rulesets (standard, and wild with jokers) use them.
  const std::size_t wide_rules = entry != 0 && in.byte() & 1 ? prial_fuzz::rulesets().size() - 1 : 0;
  const prial::RulesConfig& wide = entry == 1 || entry == 2 ? prial_fuzz::rulesets()[wide_rules] : rules;
  switch (entry) {
    case 0: evaluate(in, rules, threads); break;
    case 1: keys(in, wide, threads); break;
    case 2: sees(in, wide, threads); break;
    default: splits(in, rules, threads); break;
  }
  return 0;
}
