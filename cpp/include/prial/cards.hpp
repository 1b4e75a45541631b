// Card encoding and text form (SPEC §1).
//
// A card is one byte: index = rank * 4 + suit, rank 0 = deuce ... 12 = ace,
// suit 0..3 = clubs, diamonds, hearts, spades.  Jokers are 52, 53, 54.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace prial {

using Card = std::uint8_t;

inline constexpr int kStandardPack = 52;
inline constexpr int kMaxJokers = 3;
inline constexpr int kMaxPack = kStandardPack + kMaxJokers;  // 55
inline constexpr int kRanks = 13;
inline constexpr Card kFirstJoker = 52;
inline constexpr int kAce = 12;
inline constexpr int kThree = 1;

inline constexpr int rank_of(int card) noexcept { return card >> 2; }
inline constexpr int suit_of(int card) noexcept { return card & 3; }
inline constexpr bool is_joker(int card) noexcept { return card >= kFirstJoker; }

// Every rejected hand, card or ruleset raises this; the message names the
// offending card, hand (row) and position.  Bound to prial.InvalidHandError.
// `row` is the index of the offending hand in a batch, or -1.
class InvalidHand : public std::invalid_argument {
 public:
  explicit InvalidHand(const std::string& message, long long row = -1)
      : std::invalid_argument(message), row_(row) {}
  long long row() const noexcept { return row_; }

 private:
  long long row_;
};

// "3s 2h Ah", "3s,2h,Ah", "3s2hAh", "10♥ X".  Plain "X"/"Joker" takes the
// next joker not yet used in this text; "X1".."X3" name one joker.
std::vector<Card> parse_cards(std::string_view text);

// Inverse of parse_cards: "3s 2h Ah"; jokers are written X1..X3 so that
// formatting then parsing gives back the same indices.
std::string format_card(int card);
std::string format_cards(const Card* cards, std::size_t count);

// The rank character used in descriptions ("2".."9", "T", "J", "Q", "K", "A").
char rank_char(int rank) noexcept;
// "two" / "twos" ... "ace" / "aces".
const char* rank_name(int rank) noexcept;
const char* rank_plural(int rank) noexcept;

// Checks one hand of `count` cards against a pack of `pack_size` cards
// (52 + jokers): every index in range, none repeated.  `where` prefixes the
// message (e.g. "row 17").  Throws InvalidHand.
void validate_hand(const Card* cards, std::size_t count, int pack_size,
                   const std::string& where);

// Like validate_hand but returns the message instead of throwing ("" when
// the hand is valid); used to explain the first bad row of a batch.
std::string hand_problem(const Card* cards, std::size_t count, int pack_size);

}  // namespace prial
