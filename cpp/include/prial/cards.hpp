// Card encoding and text form (docs/rules.md, "1. Cards").
//
// A card is one byte: index = rank * 4 + suit, rank 0 = deuce ... 12 = ace,
// suit 0..3 = clubs, diamonds, hearts, spades.  Jokers are 52, 53, 54.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "prial/cancel.hpp"

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
// `row` is the index of the offending hand in a batch (or of the player at
// a showdown), or -1; `field` the argument it came from ("" when not known).
class InvalidHand : public std::invalid_argument {
 public:
  explicit InvalidHand(const std::string& message, long long row = -1, std::string field = {})
      : std::invalid_argument(message), row_(row), field_(std::move(field)) {}
  long long row() const noexcept { return row_; }
  const std::string& field() const noexcept { return field_; }

  // Attaches where the error came from to an error already thrown (keeps
  // its dynamic type when rethrown with `throw;`).
  void locate(long long row, std::string field) {
    row_ = row;
    field_ = std::move(field);
  }

 private:
  long long row_;
  std::string field_;
};

// "3s 2h Ah", "3s,2h,Ah", "3s2hAh", "10♥ X".  Plain "X"/"Joker" takes the
// next joker not yet used in this text; "X1".."X3" name one joker.
std::vector<Card> parse_cards(std::string_view text);

// Inverse of parse_cards: "3s 2h Ah"; jokers are written X1..X3 so that
// formatting then parsing gives back the same indices.
std::string format_card(int card);
std::string format_cards(const Card* cards, std::size_t count);
// " (read as 3s 2h X1 X2)": what a hand of the wrong size was read as, for
// its error message (a typo such as "Xx" is two jokers); the first 15 cards.
std::string read_as(const Card* cards, std::size_t count);

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

// ---- Text columns: many hands parsed at once (the `prial score` path) ----

// Why one row of a text column did not parse (or kOk).  Values are stable:
// they travel to Python as a uint8 array.
enum class ParseStatus : std::uint8_t {
  kOk = 0,
  kNull = 1,           // the row is null (missing)
  kUnknownRank = 2,
  kMissingSuit = 3,
  kUnknownSuit = 4,
  kJokerTwice = 5,     // X1..X3 named twice
  kTooManyJokers = 6,  // a fourth plain X
  kTooManyCards = 7,   // more cards than the column width
  kDuplicate = 8,      // the same card twice in the hand
  kNotInPack = 9,      // a joker the ruleset's pack does not have
};

// An Arrow `string` (int32 offsets) or `large_string` (int64 offsets)
// column, seen through its buffers without copying.  `offset` is the
// array's own offset (sliced arrays); `validity` may be null (no nulls).
struct TextColumn {
  const void* offsets = nullptr;
  bool large_offsets = false;
  const char* data = nullptr;
  const std::uint8_t* validity = nullptr;
  std::int64_t offset = 0;
  std::size_t rows = 0;
};

// Parses every row with the parse_cards grammar.  Row r's cards go to
// cards[r * width ...] (positions past its count hold 0xFF), its number of
// cards to counts[r], its status to status[r] and the 1-based number of the
// offending card to where[r] (0 when fine).  Rows are also checked for a
// repeated card and for jokers beyond `pack_size`.  No allocation per row;
// rows are split over `threads` (<= 0: all cores).  Throws only Cancelled,
// when `cancel` is set before it finishes (checked between chunks of rows;
// the outputs are then unspecified).
void parse_cards_column(const TextColumn& column, std::size_t width, int pack_size, Card* cards,
                        std::uint8_t* counts, ParseStatus* status, std::uint8_t* where, int threads,
                        const CancelFlag* cancel = nullptr);

// The message parse_cards_column's checks give for one text hand ("" when
// it is fine): "card 2 ('Zz'): unknown rank 'Z'", "duplicate card 7h ...".
std::string text_hand_problem(std::string_view text, std::size_t width, int pack_size);

}  // namespace prial
