// Unit tests of the C++ core, meant to run under AddressSanitizer and
// UndefinedBehaviorSanitizer (tools/sanitize.sh; cmake -DPRIAL_SANITIZE=ON
// -DPRIAL_BUILD_TESTS=ON, then ctest).  They drive the core directly with
// hostile input -- arbitrary bytes as card text, arbitrary bytes as batches,
// batches long enough to be split over threads -- and check every answer
// against a plain recomputation, so a sanitizer report or a wrong answer
// both fail.  No test framework: PyPI alone has to be enough to build.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kernels.hpp"
#include "parallel.hpp"
#include "portable.hpp"
#include "prial/bestof.hpp"
#include "prial/cancel.hpp"
#include "prial/cards.hpp"
#include "prial/evaluator.hpp"
#include "prial/odds.hpp"
#include "prial/partition.hpp"
#include "prial/rules.hpp"
#include "prial/service/showdown_response.hpp"
#include "prial/showdown.hpp"
#include "prial/tables.hpp"

namespace {

int failures = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

// xorshift64*: deterministic, so a failure reproduces.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

// Runs `call`; true if it threw InvalidHand, false if it returned.  Any
// other exception escapes and ends the run (a finding).
bool rejects(const std::function<void()>& call) {
  try {
    call();
  } catch (const prial::InvalidHand&) {
    return true;
  }
  return false;
}

// Naive reference: a hand is valid when every card is in the pack and none repeats.
bool hand_valid(const prial::Card* cards, std::size_t count, int pack) {
  for (std::size_t i = 0; i < count; ++i) {
    if (cards[i] >= pack) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (cards[i] == cards[j]) return false;
    }
  }
  return true;
}

void test_batch_hostile_bytes_one_kernel();

void test_parse_known_forms() {
  using V = std::vector<prial::Card>;
  CHECK(prial::parse_cards("3s 2h Ah") == (V{7, 2, 50}));
  CHECK(prial::parse_cards("3s2hAh") == (V{7, 2, 50}));
  CHECK(prial::parse_cards("10\xE2\x99\xA5 X") == (V{34, 52}));  // 10♥ and a joker
  CHECK(prial::parse_cards("") == V{});
  CHECK(rejects([] { prial::parse_cards("3s 2x"); }));
  CHECK(rejects([] { prial::parse_cards("X X X X"); }));
  CHECK(rejects([] { prial::parse_cards("3"); }));
  CHECK(rejects([] { prial::parse_cards("\xE2\x99"); }));  // a suit symbol cut short
  CHECK(rejects([] { prial::format_card(55); }));
}

// Every string of up to two bytes, then random strings biased to card
// characters: parse either rejects or gives indices that format back.
void test_parse_hostile_text() {
  auto check = [](const std::string& text) {
    std::vector<prial::Card> cards;
    if (rejects([&] { cards = prial::parse_cards(text); })) return;
    for (prial::Card c : cards) CHECK(c < prial::kMaxPack);
    CHECK(prial::parse_cards(prial::format_cards(cards.data(), cards.size())) == cards);
  };
  for (int a = 0; a < 256; ++a) {
    check(std::string(1, static_cast<char>(a)));
    for (int b = 0; b < 256; ++b) check(std::string{static_cast<char>(a), static_cast<char>(b)});
  }
  static const char alphabet[] = "23456789TJQKA10cdhsXx123 ,\t\xE2\x99\xA0\xA5\xEF\xB8\x8Fjoker";
  Random rng{0x9E3779B97F4A7C15ULL};
  for (int i = 0; i < 200000; ++i) {
    std::string text(rng.below(24), '\0');
    for (char& ch : text) {
      ch = rng.below(8) == 0 ? static_cast<char>(rng.below(256)) : alphabet[rng.below(sizeof alphabet - 1)];
    }
    check(text);
  }
}

std::vector<prial::RulesConfig> rulesets() {
  std::vector<prial::RulesConfig> out;
  prial::RulesConfig brag;
  out.push_back(brag);
  prial::RulesConfig teen_patti;
  teen_patti.ace_two_three = prial::AceTwoThree::Second;
  teen_patti.top_prial = prial::TopPrial::Ace;
  out.push_back(teen_patti);
  prial::RulesConfig poker;
  poker.ace_two_three = prial::AceTwoThree::Bottom;
  poker.top_prial = prial::TopPrial::Ace;
  poker.running_flush_over_prial = true;
  out.push_back(poker);
  prial::RulesConfig muflis;
  muflis.lowball = true;
  out.push_back(muflis);
  prial::RulesConfig deuces;
  deuces.wild_mask = 0xF;  // 2c 2d 2h 2s
  out.push_back(deuces);
  prial::RulesConfig jokers;
  jokers.jokers = 3;
  jokers.wild_ties = prial::WildTies::Equal;
  jokers.wild_mask = 1ULL << 51;  // and the ace of spades
  out.push_back(jokers);
  prial::RulesConfig classic;  // classic Brag's bragging: Jc wild, Jd the lesser bragger
  classic.runs_and_flushes = false;
  classic.top_prial = prial::TopPrial::Ace;
  classic.wild_mask = (1ULL << 36) | (1ULL << 37);
  classic.lesser_wild_mask = 1ULL << 37;
  out.push_back(classic);
  return out;
}

// Every three-card hand of the pack: strengths dense in 1..classes, the
// same whatever the card order, and standard Brag's counts.
void test_tables() {
  for (const prial::RulesConfig& rules : rulesets()) {
    const prial::Evaluator ev(rules);
    const int pack = rules.pack_size();
    std::vector<bool> seen(static_cast<std::size_t>(ev.table().classes()) + 1, false);
    for (int a = 0; a < pack; ++a) {
      for (int b = a + 1; b < pack; ++b) {
        for (int c = b + 1; c < pack; ++c) {
          const prial::Card sorted[3] = {static_cast<prial::Card>(a), static_cast<prial::Card>(b),
                                         static_cast<prial::Card>(c)};
          const prial::Card shuffled[3] = {sorted[2], sorted[0], sorted[1]};
          const prial::Strength s = ev.table().strength(ev.slot(sorted, 3));
          CHECK(s >= 1 && s <= ev.table().classes());
          CHECK(ev.table().strength(ev.slot(shuffled, 3)) == s);
          seen[s] = true;
        }
      }
    }
    CHECK(std::count(seen.begin() + 1, seen.end(), true) == ev.table().classes());
  }
  CHECK(prial::Evaluator(prial::RulesConfig{}).table().classes() == 741);
  prial::RulesConfig classic = rulesets().back();
  const prial::Evaluator with_braggers(classic);
  const auto strength = [&with_braggers](int a, int b, int c) {
    const prial::Card hand[3] = {static_cast<prial::Card>(a), static_cast<prial::Card>(b), static_cast<prial::Card>(c)};
    return with_braggers.table().strength(with_braggers.slot(hand, 3));
  };
  // A-K-Q of hearts is a high card, below a pair of deuces; 3-3 with the
  // jack of clubs beats 3-3 with the jack of diamonds.
  CHECK(strength(50, 46, 42) < strength(0, 1, 15));
  CHECK(strength(7, 6, 36) > strength(4, 5, 37));
  CHECK(strength(4, 5, 6) > strength(7, 6, 36));
  classic.lesser_wild_mask = 1ULL << 40;  // the queen of clubs is not wild
  bool refused = false;
  try {
    classic.validate();
  } catch (const prial::InvalidHand&) {
    refused = true;
  }
  CHECK(refused);
  using C = prial::Category;
  const prial::Evaluator brag(prial::RulesConfig{});
  const std::vector<C> by_strength = prial::categories_by_strength(brag.table());
  CHECK(by_strength.size() == 742u);
  for (std::uint32_t slot = 0; slot < brag.table().slots(); ++slot) {
    CHECK(by_strength[brag.table().strength(slot)] == brag.table().category(slot));
  }
  CHECK((prial::category_order(brag.table()) ==
         std::array<C, prial::kCategories>{C::Prial, C::RunningFlush, C::Run, C::Flush, C::Pair, C::HighCard}));
  prial::RulesConfig poker;
  poker.running_flush_over_prial = true;
  CHECK(prial::category_order(*prial::three_card_table(poker))[0] == C::RunningFlush);
  prial::RulesConfig bad;
  bad.jokers = 4;
  CHECK(rejects([&] { bad.validate(); }));
}

// Arbitrary bytes as a batch, long enough to be split over threads, with
// the first bad row (if any) placed anywhere: the kernel must report
// exactly that row and give every row before it the single-hand strength.
// Run once per kernel this CPU has (scalar, AVX2, AVX-512).
void test_batch_hostile_bytes() {
  for (int level = 0; level <= static_cast<int>(prial::supported_simd_level()); ++level) {
    const char* name = prial::simd_level_name(static_cast<prial::SimdLevel>(level));
    prial::set_simd_level(name);
    std::printf("batch kernel: %s\n", name);
    test_batch_hostile_bytes_one_kernel();
  }
}

void test_batch_hostile_bytes_one_kernel() {
  Random rng{42};
  for (const prial::RulesConfig& rules : rulesets()) {
    const prial::Evaluator ev(rules);
    const int pack = rules.pack_size();
    for (int round = 0; round < 6; ++round) {
      const std::size_t rows = round < 3 ? rng.below(64) : (1u << 17) + rng.below(1u << 16);
      std::vector<prial::Card> hands(rows * 3);
      for (std::size_t r = 0; r < rows; ++r) {  // valid hands...
        do {
          for (int k = 0; k < 3; ++k) hands[3 * r + k] = static_cast<prial::Card>(rng.below(pack));
        } while (!hand_valid(&hands[3 * r], 3, pack));
      }
      std::size_t first_bad = prial::kNoBadRow;
      if (rows && round % 2 == 0) {  // ...then raw bytes from a random row on
        first_bad = rng.below(rows);
        for (std::size_t i = 3 * first_bad; i < hands.size(); ++i) hands[i] = static_cast<prial::Card>(rng.next());
        hands[3 * first_bad] = hands[3 * first_bad + 1];  // that row certainly bad
      }
      for (int threads : {1, 2, 4}) {
        std::vector<prial::Strength> out(rows);
        const std::size_t bad = ev.evaluate_batch(hands.data(), rows, out.data(), threads);
        CHECK(bad == first_bad);
        const std::size_t checked = std::min(rows, first_bad);
        for (std::size_t r = 0; r < checked; r += 1 + r / 64) {
          CHECK(out[r] == ev.table().strength(ev.slot(&hands[3 * r], 3)));
        }
        if (bad != prial::kNoBadRow) CHECK(ev.explain_row(hands.data(), bad, 3).find("row ") == 0);
      }
    }
  }
  // An empty batch; a null pointer with no rows is allowed.
  const prial::Evaluator ev(prial::RulesConfig{});
  CHECK(ev.evaluate_batch(nullptr, 0, nullptr, 2) == prial::kNoBadRow);
}

void test_hand_problem_bounds() {
  const prial::Card all_bytes[6] = {255, 0, 54, 52, 51, 255};
  CHECK(!prial::hand_problem(all_bytes, 6, 52).empty());
  CHECK(prial::hand_problem(all_bytes + 1, 0, 52).empty());
  CHECK(rejects([&] { prial::validate_hand(all_bytes + 2, 2, 53, "row 3"); }));
  const prial::Evaluator ev(prial::RulesConfig{});
  CHECK(rejects([&] { ev.slot(all_bytes, 2); }));
  CHECK(rejects([&] { ev.slot(all_bytes, 6); }));
}

// Partition options at the edges of int: rejected, never overflowed into
// acceptance (opponents near INT_MAX used to pass the range check).
void test_partition_option_bounds() {
  const auto table = prial::three_card_table(prial::RulesConfig{});
  for (int opponents : {INT_MAX, INT_MAX - 12, INT_MIN, 0, 4}) {
    prial::PartitionOptions o;
    o.objective = prial::Objective::ExpectedPoints;
    o.opponents = opponents;
    CHECK(rejects([&] { prial::Partitioner p(table, o); }));
  }
  for (int hands : {INT_MAX, INT_MIN, 0, 6}) {
    prial::PartitionOptions o;
    o.hands = hands;
    CHECK(rejects([&] { prial::Partitioner p(table, o); }));
  }
  for (int cards : {INT_MAX, INT_MIN, 0, 5, 16}) {
    prial::PartitionOptions o;
    o.cards = cards;
    CHECK(rejects([&] { prial::Partitioner p(table, o); }));
  }
}


// Showdowns from hostile input: arbitrary card bytes, hand sizes, ids,
// seers, coverers and chips near 2**64.  Every call either throws
// InvalidHand (InvalidShowdown is one) or returns an outcome that pays out
// exactly the chips put in, to winners who are at the table.
void test_showdown_hostile_tables() {
  const prial::RulesConfig rules;
  const prial::Evaluator ev(rules);
  const auto table = prial::best_of_table(rules);
  const std::uint64_t chips[] = {0, 0, 0, 1, 7, 1000, 1000, UINT64_MAX / 2, UINT64_MAX};
  const char* const ids[] = {"a", "b", "c", "", "it's", "d"};
  Random rng{42};
  int decided = 0;
  for (int round = 0; round < 20000; ++round) {
    // Mostly a fair deal and distinct ids, so that many showdowns get
    // decided; now and then a stray byte, size or id.
    std::vector<prial::Card> deck(52);
    for (std::size_t i = 0; i < 52; ++i) deck[i] = static_cast<prial::Card>(i);
    for (std::size_t i = 51; i > 0; --i) std::swap(deck[i], deck[rng.below(i + 1)]);
    std::size_t dealt = 0;
    prial::ShowdownCall call;
    const std::size_t players = rng.below(6);
    const std::size_t width = 3 + rng.below(3);
    for (std::size_t i = 0; i < players; ++i) {
      prial::Seat& seat = call.players.emplace_back();
      seat.id = rng.below(20) ? std::string(1, static_cast<char>('a' + i)) : ids[rng.below(6)];
      const std::size_t count = rng.below(20) ? width : rng.below(7);
      for (std::size_t c = 0; c < count; ++c) {
        seat.cards.push_back(rng.below(50) ? deck[dealt++ % 52] : static_cast<prial::Card>(rng.below(256)));
      }
      seat.blind = rng.below(3) == 0;
      seat.stake = chips[rng.below(9)];
    }
    if (rng.below(2)) call.seer = rng.below(10) ? std::string(1, static_cast<char>('a' + rng.below(2))) : ids[rng.below(6)];
    if (rng.below(4) == 0) call.coverer = std::string(1, static_cast<char>('a' + rng.below(4)));
    call.cards_per_hand = rng.below(8) ? 0 : rng.below(7);
    call.pot = chips[rng.below(9)];
    call.old_pot = rng.below(4) ? 0 : chips[rng.below(9)];
    prial::ShowdownOutcome out;
    try {
      out = prial::decide_showdown(ev, *table, call);
    } catch (const prial::InvalidHand& e) {
      // An error located at a player names a seat of the table.
      CHECK(e.field().empty() == (e.row() < 0));
      CHECK(e.field().empty() || (e.field() == prial::kPlayersField && e.row() < static_cast<long long>(players)));
      continue;
    }
    ++decided;
    CHECK(out.hands.size() == players);
    CHECK(!out.award.winners.empty());
    for (const std::size_t w : out.award.winners) CHECK(w < players);
    // Every chip in play is paid out; a table whose chips add up past 64
    // bits is rejected, so none that was decided wraps.
    std::uint64_t put_in = 0, paid = 0;
    bool wrapped = prial::portable::add_overflows(call.pot, call.old_pot, &put_in);
    for (const prial::Seat& seat : call.players) wrapped |= prial::portable::add_overflows(put_in, seat.stake, &put_in);
    for (const std::uint64_t p : out.payouts) wrapped |= prial::portable::add_overflows(paid, p, &paid);
    CHECK(!wrapped);
    CHECK(out.payouts.empty() ? put_in == 0 : paid == put_in);
    CHECK(!out.award.reason.empty());
  }
  CHECK(decided > 1000);  // the checks above ran on many real showdowns
}

// Errors about one player are located at its seat; a bad row of a batch
// names the side whose hand is bad (a card in both: the seer's).
void test_error_locations() {
  const prial::RulesConfig rules;
  const prial::Evaluator ev(rules);
  const auto table = prial::best_of_table(rules);
  prial::ShowdownCall call;
  call.players = {{"a", {0, 1, 2}, false, 0}, {"b", {3, 4, 4}, false, 0}};
  try {
    prial::decide_showdown(ev, *table, call);
    CHECK(false);
  } catch (const prial::InvalidHand& e) {
    CHECK(e.row() == 1 && e.field() == prial::kPlayersField);
  }
  call.players[1].cards = {3, 4, 5};
  call.seer = "z";
  try {
    prial::decide_showdown(ev, *table, call);
    CHECK(false);
  } catch (const prial::InvalidShowdown& e) {
    CHECK(e.row() == -1 && e.field().empty());
  }
  const prial::Card seer[] = {0, 1, 2, 8, 9, 10, 16, 17, 18};
  const prial::Card seen[] = {3, 4, 5, 11, 11, 12, 19, 20, 16};
  prial::ShowdownSide side = prial::ShowdownSide::Seer;
  CHECK(prial::explain_showdown_row(52, seer, seen, 0, 3, &side).empty());
  CHECK(!prial::explain_showdown_row(52, seer, seen, 1, 3, &side).empty() && side == prial::ShowdownSide::Seen);
  CHECK(!prial::explain_showdown_row(52, seer, seen, 2, 3, &side).empty() && side == prial::ShowdownSide::Seer);
}

// The service's ShowdownResponse encoding of a decided showdown: the
// first fields as protocol buffers lay them out (kind, then the winner).
void test_showdown_response() {
  const prial::RulesConfig rules;
  const prial::Evaluator ev(rules);
  const auto table = prial::best_of_table(rules);
  prial::ShowdownCall call;
  call.players = {{"a", {51, 45, 42}, false, 0}, {"b", {0, 5, 14}, false, 0}};
  const std::string wire =
      prial::service::encode_showdown_response(call, prial::decide_showdown(ev, *table, call), ev.table());
  CHECK(wire.compare(0, 8, std::string("\x0a\x06" "agreed", 8)) == 0);  // field 1, length 6
  CHECK(wire.compare(8, 3, std::string("\x1a\x01" "a", 3)) == 0);       // field 3: winner "a"
}

void test_quoted_ids() {
  CHECK(prial::quoted("a") == "'a'");
  CHECK(prial::quoted("it's") == "\"it's\"");
  CHECK(prial::quoted("both ' and \"") == "'both \\' and \"'");
  CHECK(prial::quoted("tab\there") == "'tab\\there'");
  CHECK(prial::quoted(std::string("nul\0", 4)) == "'nul\\x00'");
}

// Rows of arbitrary bytes through the portable best-of kernel: the bad row
// is reported and the slot arithmetic stays inside its tables (a card byte
// above the pack used to index the binomial tables before the row was
// rejected; found by cpp/fuzz/fuzz_batch.cpp under UBSan).
void test_key_batch_hostile_bytes() {
  const prial::SimdLevel level = prial::simd_level();
  prial::set_simd_level("scalar");
  const auto table = prial::best_of_table(prial::RulesConfig{});
  const prial::Card hands[] = {0, 1, 2, 3, 4, 255, 254, 253, 200, 121};
  for (std::size_t width = 3; width <= 5; ++width) {
    prial::BestKey out[2];
    CHECK(table->key_batch(hands, 2, width, out, 1) == 1);
    CHECK(out[0] == table->key(hands, width));
  }
  prial::set_simd_level(prial::simd_level_name(level));
}

// ---- portability (portable.hpp) ----------------------------------------------

// The bit scans the compiler provides against the plain C++ ones other
// compilers get, and both against a bit-by-bit count: every single bit,
// every pair of bits, and random words.
void test_bit_scans() {
  std::vector<std::uint64_t> words;
  for (unsigned i = 0; i < 64; ++i) {
    for (unsigned j = i; j < 64; ++j) words.push_back((std::uint64_t{1} << i) | (std::uint64_t{1} << j));
  }
  Random rng{7};
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t x = (rng.next() >> rng.below(64)) << rng.below(64);
    if (x != 0) words.push_back(x);
  }
  words.push_back(~std::uint64_t{0});
  for (const std::uint64_t x : words) {
    unsigned lowest = 0, highest = 63;
    while (!((x >> lowest) & 1)) ++lowest;
    while (!((x >> highest) & 1)) --highest;
    CHECK(prial::portable::lowest_bit(x) == lowest);
    CHECK(prial::portable::fallback::lowest_bit(x) == lowest);
    CHECK(prial::portable::highest_bit(x) == highest);
    CHECK(prial::portable::fallback::highest_bit(x) == highest);
  }
  static_assert(prial::portable::fallback::lowest_bit(std::uint64_t{1} << 40) == 40, "usable in constants");
}

void test_add_overflows() {
  std::uint64_t sum = 1;
  CHECK(!prial::portable::add_overflows(UINT64_MAX - 7, 7, &sum) && sum == UINT64_MAX);
  CHECK(prial::portable::add_overflows(UINT64_MAX - 7, 8, &sum) && sum == 0);
  CHECK(prial::portable::add_overflows(UINT64_MAX, UINT64_MAX, &sum) && sum == UINT64_MAX - 1);
  CHECK(!prial::portable::add_overflows(0, 0, &sum) && sum == 0);
}

void test_aligned_allocate() {
  constexpr std::size_t alignment = std::size_t{1} << 21, bytes = 2 * alignment;
  void* block = prial::portable::aligned_allocate(alignment, bytes);
  CHECK(block != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(block) % alignment == 0);
  static_cast<unsigned char*>(block)[bytes - 1] = 1;  // all of it is usable (ASan checks)
  prial::portable::aligned_release(block);
}

// The level found from CPUID and XCR0 is the one the compiler's own CPU
// check gives for the kernels' instruction sets; elsewhere only the
// portable kernel exists.
void test_detected_simd_level() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi");
  const prial::SimdLevel expected = avx512                          ? prial::SimdLevel::kAvx512
                                    : __builtin_cpu_supports("avx2") ? prial::SimdLevel::kAvx2
                                                                     : prial::SimdLevel::kScalar;
  CHECK(prial::supported_simd_level() == expected);
#elif !defined(PRIAL_X86)
  CHECK(prial::supported_simd_level() == prial::SimdLevel::kScalar);
  CHECK(rejects([] { prial::set_simd_level("avx2"); }));
#endif
  std::printf("supported SIMD level: %s\n", prial::simd_level_name(prial::supported_simd_level()));
}

// ---- cancellation (cancel.hpp) ---------------------------------------------

// True if `call` threw Cancelled; false if it returned.
bool cancelled_by(const std::function<void()>& call) {
  try {
    call();
  } catch (const prial::Cancelled&) {
    return true;
  }
  return false;
}

// `rows` valid hands of `width` cards from the standard pack, back to back.
std::vector<prial::Card> valid_hands(std::size_t rows, std::size_t width, std::uint64_t seed) {
  Random rng{seed};
  std::vector<prial::Card> hands(rows * width);
  for (std::size_t r = 0; r < rows; ++r) {
    do {
      for (std::size_t k = 0; k < width; ++k) hands[width * r + k] = static_cast<prial::Card>(rng.below(52));
    } while (!hand_valid(&hands[width * r], width, 52));
  }
  return hands;
}

// A flag cancelled before the call stops every entry point before any work,
// also with nothing to do.
void test_cancel_before_the_call() {
  prial::CancelFlag flag;
  CHECK(!flag.cancelled());
  flag.cancel();
  CHECK(flag.cancelled());
  const prial::RulesConfig rules;
  const prial::Evaluator ev(rules);
  const auto table = prial::best_of_table(rules);
  const std::vector<prial::Card> hands = valid_hands(1000, 5, 7);
  std::vector<prial::Strength> strengths(1000);
  std::vector<prial::BestKey> keys(1000);
  std::vector<std::uint8_t> wins(1000);
  for (const std::size_t rows : {std::size_t{0}, std::size_t{300}}) {
    CHECK(cancelled_by([&] { ev.evaluate_batch(hands.data(), rows, strengths.data(), 2, &flag); }));
    CHECK(cancelled_by([&] { table->key_batch(hands.data(), rows, 5, keys.data(), 2, &flag); }));
    CHECK(cancelled_by([&] {
      prial::showdown_batch(ev, *table, hands.data(), hands.data() + 15, rows / 5, 3, wins.data(), 2, &flag);
    }));
  }
  prial::PartitionOptions options;
  const prial::Partitioner partitioner(prial::three_card_table(rules), options);
  const std::vector<prial::Card> deals = valid_hands(4, 13, 8);
  std::vector<prial::Card> split_hands(4 * 4 * 3);
  std::vector<prial::Strength> split_strengths(4 * 4);
  CHECK(cancelled_by([&] { partitioner.split_batch(deals.data(), 4, split_hands.data(), split_strengths.data(), 2, &flag); }));
  const std::vector<prial::Card> unseen = prial::unseen_cards(52, hands.data(), 3, nullptr, 0);
  CHECK(cancelled_by([&] { prial::equity_exact(*table, hands.data(), 3, unseen, 1, &flag); }));
  CHECK(cancelled_by([&] { prial::equity_sampled(*table, hands.data(), 3, unseen, 4, 100, 1, &flag); }));
  const std::string text = "3s 2h Ah";
  const std::int32_t offsets[2] = {0, static_cast<std::int32_t>(text.size())};
  prial::TextColumn column;
  column.offsets = offsets;
  column.data = text.data();
  column.rows = 1;
  prial::Card cards[3];
  std::uint8_t counts[1], where[1];
  prial::ParseStatus status[1];
  CHECK(cancelled_by([&] { prial::parse_cards_column(column, 3, 52, cards, counts, status, where, 1, &flag); }));
}

// A flag never cancelled changes no answer, and a cancel after the work
// finished is not an error.
void test_uncancelled_flag_changes_nothing() {
  const prial::RulesConfig rules;
  const prial::Evaluator ev(rules);
  const auto table = prial::best_of_table(rules);
  const std::size_t rows = 3'000'000;  // several chunks a thread
  std::vector<prial::Card> hands = valid_hands(rows, 3, 9);
  prial::CancelFlag flag;
  std::vector<prial::Strength> plain(rows), watched(rows);
  CHECK(ev.evaluate_batch(hands.data(), rows, plain.data(), 2) == prial::kNoBadRow);
  CHECK(ev.evaluate_batch(hands.data(), rows, watched.data(), 2, &flag) == prial::kNoBadRow);
  CHECK(plain == watched);
  // The first bad row is still found in a later chunk.
  hands[3 * 2'500'001] = hands[3 * 2'500'001 + 2];
  CHECK(ev.evaluate_batch(hands.data(), rows, watched.data(), 2, &flag) == 2'500'001);
  const std::vector<prial::Card> fives = valid_hands(1'200'000, 5, 10);
  std::vector<prial::BestKey> keys_plain(1'200'000), keys_watched(1'200'000);
  CHECK(table->key_batch(fives.data(), 1'200'000, 5, keys_plain.data(), 2) == prial::kNoBadRow);
  CHECK(table->key_batch(fives.data(), 1'200'000, 5, keys_watched.data(), 2, &flag) == prial::kNoBadRow);
  CHECK(keys_plain == keys_watched);
  std::vector<prial::Card> bad_fives = fives;
  bad_fives[5 * 1'100'000 + 4] = 60;
  CHECK(table->key_batch(bad_fives.data(), 1'200'000, 5, keys_watched.data(), 2, &flag) == 1'100'000);
  const std::vector<prial::Card> unseen = prial::unseen_cards(52, hands.data(), 3, nullptr, 0);
  const prial::OutcomeCounts a = prial::equity_sampled(*table, hands.data(), 3, unseen, 5, 50'000, 3);
  const prial::OutcomeCounts b = prial::equity_sampled(*table, hands.data(), 3, unseen, 5, 50'000, 3, &flag);
  CHECK(a.win == b.win && a.tie == b.tie && a.lose == b.lose);
  const prial::OutcomeCounts c = prial::equity_exact(*table, hands.data(), 3, unseen, 2);
  const prial::OutcomeCounts d = prial::equity_exact(*table, hands.data(), 3, unseen, 2, &flag);
  CHECK(c.win == d.win && c.tie == d.tie && c.lose == d.lose && c.total() > 0);
  CHECK(!flag.cancelled());
}

// The threaded driver: a cancel seen by one thread stops them all before
// their next chunk; an exception from one chunk is rethrown after the join.
void test_parallel_chunks_stop_every_thread() {
  prial::CancelFlag flag;
  std::atomic<std::size_t> chunks{0};
  const bool stopped = cancelled_by([&] {
    prial::parallel_chunks(4000, 4, 1, &flag, [&](std::size_t begin, std::size_t) {
      ++chunks;
      if (begin == 5) flag.cancel();
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }, 1);
  });
  CHECK(stopped);
  CHECK(chunks < 100);  // each of the 4 threads stops within a chunk or two of the cancel
  std::atomic<std::size_t> after_error{0};
  bool rethrown = false;
  try {
    prial::parallel_chunks(4000, 4, 1, nullptr, [&](std::size_t begin, std::size_t) {
      if (begin == 1005) throw std::runtime_error("chunk failed");
      ++after_error;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }, 1);
  } catch (const std::runtime_error& e) {
    rethrown = std::string(e.what()) == "chunk failed";
  }
  CHECK(rethrown);
  CHECK(after_error < 3000);
  // Finished work returns normally even if the flag is set afterwards.
  prial::CancelFlag late;
  CHECK(!cancelled_by([&] { prial::parallel_chunks(10, 2, 3, &late, [](std::size_t, std::size_t) {}); }));
}

// A long threaded call stops soon after another thread cancels it.
void test_threaded_batch_stops() {
  const prial::RulesConfig rules;
  prial::PartitionOptions options;
  options.objective = prial::Objective::ExpectedPoints;
  const prial::Partitioner partitioner(prial::three_card_table(rules), options);
  const std::size_t rows = 200'000;  // several seconds of work
  const std::vector<prial::Card> deals = valid_hands(rows, 13, 11);
  std::vector<prial::Card> hands_out(rows * 4 * 3);
  std::vector<prial::Strength> strengths_out(rows * 4);
  prial::CancelFlag flag;
  std::chrono::steady_clock::time_point cancelled_at;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancelled_at = std::chrono::steady_clock::now();
    flag.cancel();
  });
  const bool stopped = cancelled_by([&] {
    partitioner.split_batch(deals.data(), rows, hands_out.data(), strengths_out.data(), 4, &flag);
  });
  const auto returned_at = std::chrono::steady_clock::now();
  canceller.join();
  CHECK(stopped);
  const double latency = std::chrono::duration<double>(returned_at - cancelled_at).count();
  std::printf("threaded split_batch stopped %.1f ms after the cancel\n", latency * 1e3);
  CHECK(latency < 2.0);  // ~ms; wide for the sanitizer build
}

}  // namespace

int main() {
  test_bit_scans();
  test_add_overflows();
  test_aligned_allocate();
  test_detected_simd_level();
  test_parse_known_forms();
  test_parse_hostile_text();
  test_tables();
  test_batch_hostile_bytes();
  test_key_batch_hostile_bytes();
  test_hand_problem_bounds();
  test_partition_option_bounds();
  test_showdown_hostile_tables();
  test_error_locations();
  test_showdown_response();
  test_quoted_ids();
  test_cancel_before_the_call();
  test_uncancelled_flag_changes_nothing();
  test_parallel_chunks_stop_every_thread();
  test_threaded_batch_stops();
  if (failures) {
    std::fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  std::puts("core tests passed");
  return 0;
}
