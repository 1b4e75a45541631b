#include "prial/rules.hpp"

#include <algorithm>
#include <tuple>

namespace prial {
namespace {

// Run order values: a run whose top card is rank r (4-3-2 .. A-K-Q) is 2r,
// so 4..24; A-2-3 takes an odd slot or the top one depending on the rules.
constexpr unsigned kRunAceTwoThreeTop = 26;     // above A-K-Q (24)
constexpr unsigned kRunAceTwoThreeSecond = 23;  // between A-K-Q (24) and K-Q-J (22)
constexpr unsigned kRunAceTwoThreeBottom = 3;   // below 4-3-2 (4)
constexpr unsigned kPrialOfThreesOnTop = 13;    // above A-A-A (12)

unsigned category_place(const RulesConfig& rules, Category c) {
  if (rules.running_flush_over_prial) {
    if (c == Category::RunningFlush) return 5;
    if (c == Category::Prial) return 4;
  }
  return static_cast<unsigned>(c);
}

NaturalValue pack(const RulesConfig& rules, Category c, unsigned order) {
  return (category_place(rules, c) << 16) | (static_cast<unsigned>(c) << 13) | order;
}

std::string ranks_text(int hi, int mid, int lo) {
  return std::string{rank_char(hi), '-', rank_char(mid), '-', rank_char(lo)};
}

}  // namespace

void RulesConfig::validate() const {
  if (jokers < 0 || jokers > kMaxJokers) {
    throw InvalidHand("jokers must be 0..3, got " + std::to_string(jokers));
  }
  if (wild_mask >> kStandardPack) {
    throw InvalidHand("the wild mask names cards above 51; jokers are wild through `jokers`");
  }
  if (lesser_wild_mask & ~wild_mask) {
    throw InvalidHand("the lesser wild mask names cards that are not wild");
  }
  if (suits_rank()) {
    std::array<std::uint8_t, 4> places = suit_rank;
    std::sort(places.begin(), places.end());
    if (places != std::array<std::uint8_t, 4>{0, 1, 2, 3}) {
      throw InvalidHand("suit_rank must give the four suits the places 0..3, each once");
    }
  }
}

static auto as_tuple(const RulesConfig& r) {
  return std::make_tuple(r.ace_two_three, r.top_prial, r.running_flush_over_prial, r.lowball,
                         r.runs_and_flushes, r.wild_mask, r.lesser_wild_mask, r.jokers, r.wild_ties,
                         r.wild_as_itself, r.suit_rank);
}
bool RulesConfig::operator==(const RulesConfig& o) const noexcept { return as_tuple(*this) == as_tuple(o); }
bool RulesConfig::operator<(const RulesConfig& o) const noexcept { return as_tuple(*this) < as_tuple(o); }

NaturalValue natural_value(const RulesConfig& rules, int a, int b, int c) noexcept {
  int r[3] = {rank_of(a), rank_of(b), rank_of(c)};
  std::sort(r, r + 3, [](int x, int y) { return x > y; });
  const bool runs = rules.runs_and_flushes;  // false: runs and flushes are high cards
  const bool flush = runs && suit_of(a) == suit_of(b) && suit_of(b) == suit_of(c);
  if (r[0] == r[2]) {
    const unsigned order = (rules.top_prial == TopPrial::Three && r[0] == kThree)
                               ? kPrialOfThreesOnTop
                               : static_cast<unsigned>(r[0]);
    return pack(rules, Category::Prial, order);
  }
  unsigned run_order = 0;
  if (runs && r[0] == r[1] + 1 && r[1] == r[2] + 1) {
    run_order = 2u * static_cast<unsigned>(r[0]);
  } else if (runs && r[0] == kAce && r[1] == 1 && r[2] == 0) {
    run_order = rules.ace_two_three == AceTwoThree::Top      ? kRunAceTwoThreeTop
                : rules.ace_two_three == AceTwoThree::Second ? kRunAceTwoThreeSecond
                                                             : kRunAceTwoThreeBottom;
  }
  if (run_order) return pack(rules, flush ? Category::RunningFlush : Category::Run, run_order);
  if (flush) return pack(rules, Category::Flush, (r[0] << 8) | (r[1] << 4) | r[2]);
  if (r[0] == r[1] || r[1] == r[2]) {
    const int pair = r[1];  // the middle rank is always one of the pair
    const int kicker = r[0] == r[1] ? r[2] : r[0];
    return pack(rules, Category::Pair, (pair << 4) | kicker);
  }
  return pack(rules, Category::HighCard, (r[0] << 8) | (r[1] << 4) | r[2]);
}

const char* category_name(Category c) noexcept {
  switch (c) {
    case Category::HighCard: return "High card";
    case Category::Pair: return "Pair";
    case Category::Flush: return "Flush";
    case Category::Run: return "Run";
    case Category::RunningFlush: return "Running flush";
    case Category::Prial: return "Prial";
  }
  return "?";
}

std::string describe(NaturalValue v, int wilds) {
  const Category cat = category_of(v);
  const unsigned order = v & 0xFFFu;
  std::string text;
  switch (cat) {
    case Category::Prial: {
      const int rank = order == kPrialOfThreesOnTop ? kThree : static_cast<int>(order);
      text = std::string("Prial of ") + rank_plural(rank);
      break;
    }
    case Category::RunningFlush:
    case Category::Run: {
      const bool ace_low = order == kRunAceTwoThreeTop || (order & 1u);
      text = std::string(category_name(cat)) + ", " +
             (ace_low ? std::string("3-2-A")
                      : ranks_text(static_cast<int>(order / 2), static_cast<int>(order / 2) - 1,
                                   static_cast<int>(order / 2) - 2));
      break;
    }
    case Category::Pair:
      text = std::string("Pair of ") + rank_plural(static_cast<int>(order >> 4)) + ", " +
             rank_name(static_cast<int>(order & 15u)) + " kicker";
      break;
    case Category::Flush:
    case Category::HighCard:
      text = std::string(category_name(cat)) + ", " +
             ranks_text(static_cast<int>(order >> 8), static_cast<int>((order >> 4) & 15u),
                        static_cast<int>(order & 15u));
      break;
  }
  if (wilds > 0) text += " (" + std::to_string(wilds) + " wild)";
  return text;
}

}  // namespace prial
