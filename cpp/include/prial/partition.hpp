// Splitting n cards into k three-card hands (docs/rules.md, "5. Partitioning"):
// seven-, nine-, thirteen- (Crash) and fifteen-card Brag.
//
// A split is k hands, strongest first, plus n - 3k (or more) discards.
// Its *strength tuple* lists the hands' strengths in that order, 0 for a
// hand not formed (only with a minimum category).  Two objectives:
//
// - Lexicographic: the tuple that is largest lexicographically (strongest
//   first hand, then strongest second from the rest, ...).  Exact: every
//   tie for a hand is followed, not just the first found.
// - ExpectedPoints: the split with the most positions won on average
//   against `opponents` opponents (a unique best hand at a position scores
//   1, ties score nobody).  Scoring by position is monotone in each hand's
//   strength, so the answer lies on the Pareto frontier of strength tuples;
//   the search enumerates only that frontier (branch and bound: hands are
//   taken strongest first from the triples sorted by strength, and a branch
//   stops as soon as a frontier point found already dominates every
//   completion) and scores each point with the opponent model.  A batch
//   needs no frontier size: for a deal without four of a kind it walks the
//   same way but stops a branch once the expected points of its best
//   completion fall short of the best split found, and returns the same
//   split.
//
// Crash bonuses (docs/rules.md, "Crash bonuses in expected points"), with 13
// cards into 4 hands or 9 into 3 (Crash rounds), in ExpectedPoints:
// - Four of a kind: a split whose hands use all four cards of a rank earns
//   one point times P(no opponent can hold a better four), approximated as
//   (1 - q)^(opponents * m): q = P(one opponent's cards hold all four of a
//   given rank we hold none of), m = the better ranks (in the option's
//   four_order) of which we hold no card; opponents independent, an opponent's four taken
//   as used.  Only the player's best four scores.  This depends on which
//   cards the hands use, not only on the strength tuple, so the frontier is
//   also searched once per four of a kind in the deal among the splits whose
//   hands use all four of its cards, and the best of all those points wins.
// - Crash (every position won): crash_value times P(every position won)
//   (the product of the positions' win probabilities, same independence).
//   Default 0: prial.crash_showdown scores a crash as its positions
//   and nothing more, which the positions' terms already count.
//
// Opponent model: per position i, P(an opponent's i-th hand < s), estimated
// once per (ruleset, cards, hands, minimum category) from kModelDeals
// seeded random deals of the full pack played lexicographically, and
// cached.  A hand of strength s wins position i with probability
// P(< s)^opponents (opponents independent; card removal by our own hand
// ignored).  Deterministic: the same input always gives the same split.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "prial/cancel.hpp"
#include "prial/tables.hpp"

namespace prial {

enum class Objective : std::uint8_t { Lexicographic, ExpectedPoints };

inline constexpr int kMinPartitionCards = 6;
inline constexpr int kMaxPartitionCards = 15;
inline constexpr int kMinPartitionHands = 2;
inline constexpr int kMaxPartitionHands = 5;
inline constexpr Card kNoCard = 255;  // marks an unformed hand in batch output
inline constexpr int kModelDeals = 40000;
inline constexpr double kMaxCrashValue = 1000;
inline constexpr std::uint64_t kModelSeed = 0x5052494131334342ull;  // fixed: deterministic answers

// How the four-of-a-kind bonus ranks fours (docs/rules.md, "7. Crash scoring"):
// Prial, as the ruleset ranks the prial of each rank (threes highest in
// standard Brag, aces with top_prial "ace" and in Teen Patti); Aces, A, K ...
// 2; Fours, fours highest, then A, K ... 2 (earlier versions' order).
enum class FourOrder : std::uint8_t { Prial, Aces, Fours };
// The option's names, in FourOrder order: the one vocabulary every layer uses.
inline constexpr std::array<const char*, 3> kFourOrderNames = {"prial", "aces", "fours"};
// The FourOrder named `name`; throws InvalidHand naming the choices.
FourOrder four_order_from(const std::string& name);
// Ranks strongest first for the bonus (rank codes: 0 is a two, 12 an ace).
std::array<int, kRanks> four_of_a_kind_order(const ThreeCardTable& table, FourOrder order);

struct PartitionOptions {
  int cards = 13;
  int hands = 4;
  Objective objective = Objective::Lexicographic;
  int min_category = -1;  // a Category value, or -1: any three cards form a hand
  int opponents = 3;
  double crash_value = 0;  // ExpectedPoints, Crash: points for a crash beyond its positions' own
  FourOrder four_order = FourOrder::Prial;  // ExpectedPoints, Crash: which four of a kind is better
};

struct Split {
  std::array<std::array<Card, 3>, kMaxPartitionHands> hands{};  // strongest first; each hand highest card first
  std::array<std::uint32_t, kMaxPartitionHands> slots{};        // three-card slot of each formed hand
  std::array<Strength, kMaxPartitionHands> strengths{};         // 0 for an unformed hand
  int formed = 0;                                                // formed hands come first
  std::array<Card, kMaxPartitionCards> discards{};              // highest first (joker above ace)
  int discard_count = 0;
  double expected_points = -1;  // ExpectedPoints only (Crash bonuses included); -1 otherwise
  int candidates = 0;           // splits compared: Pareto frontier size / lexicographic leaves
};

class OpponentModel;

class Partitioner {
 public:
  // Validates the options (throws InvalidHand); builds or fetches the
  // opponent model for ExpectedPoints.
  Partitioner(std::shared_ptr<const ThreeCardTable> table, const PartitionOptions& options);

  const PartitionOptions& options() const noexcept { return options_; }
  const ThreeCardTable& table() const noexcept { return *table_; }
  // The weakest strength a formed hand may have (1 without a minimum).
  Strength threshold() const noexcept { return threshold_; }

  // Validates `count` cards (count, range, repeats; throws InvalidHand
  // prefixed by `where`) and splits them.
  Split split(const Card* cards, std::size_t count, const std::string& where = {}) const;

  // Splits `rows` deals of options().cards cards stored back to back into
  // hands_out (rows * hands * 3, kNoCard for unformed hands) and
  // strengths_out (rows * hands, 0 for unformed).  Returns the first invalid
  // row (no output written) or kNoBadRow.  Throws only Cancelled, when
  // `cancel` is set before it finishes (checked between chunks of deals;
  // the output is then unspecified).
  std::size_t split_batch(const Card* deals, std::size_t rows, Card* hands_out, Strength* strengths_out,
                          int threads, const CancelFlag* cancel = nullptr) const;

  // P(a hand of `strength` at `position` beats every opponent); ExpectedPoints only.
  double win_probability(int position, Strength strength) const noexcept;

  // Split without validation (cards known valid).
  Split split_unchecked(const Card* cards) const noexcept;

  // Whether the Crash bonuses above apply: ExpectedPoints, 13 cards into 4
  // hands or 9 into 3 (a crash needs three or four positions; either deal's
  // hands can use all four cards of a rank).
  bool crash_bonuses() const noexcept {
    return options_.objective == Objective::ExpectedPoints &&
           ((options_.cards == 13 && options_.hands == 4) || (options_.cards == 9 && options_.hands == 3));
  }
  // The modelled value of a four of a kind used in hands when `better_ranks_unheld`
  // better ranks have none of their cards in ours.
  double four_of_a_kind_bonus(int better_ranks_unheld) const noexcept;

 private:
  // count_frontier: the whole frontier is searched, as Split::candidates
  // reports it; otherwise a four-free deal is searched by score bound.
  Split solve(const Card* cards, bool count_frontier) const noexcept;

  std::shared_ptr<const ThreeCardTable> table_;
  PartitionOptions options_;
  Strength threshold_ = 1;
  double opponent_four_probability_ = 0;
  std::shared_ptr<const OpponentModel> model_;
  std::array<int, kRanks> four_order_{};  // ranks strongest first for the four-of-a-kind bonus
  std::vector<double> win_;  // win_probability by position * win_stride_ + strength; 0 at strength 0
  std::size_t win_stride_ = 0;
};

}  // namespace prial
