// Showdown adjudication (docs/rules.md, "6. Showdowns"): one showdown
// decided in full (a see or an agreed showdown, pots, covering) and
// two-player sees in bulk.  In a see the seen player shows first and the
// seer wins only with a strictly better hand; equal hands go to the seen
// player (four/five cards: after the discard tie-break).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "prial/bestof.hpp"
#include "prial/cancel.hpp"
#include "prial/evaluator.hpp"  // kNoBadRow

namespace prial {

// A showdown that breaks the game's rules (a see of a blind man, a seer who
// is not at the table, a card dealt twice ...), as opposed to a malformed
// hand.  Bound to prial.InvalidShowdownError (a subclass of
// InvalidHandError).
class InvalidShowdown : public InvalidHand {
 public:
  using InvalidHand::InvalidHand;
};

// One player at the showdown.  `cards` are card indices (0..54), not yet
// checked against the ruleset's pack.
struct Seat {
  std::string id;
  std::vector<Card> cards;
  bool blind = false;
  std::uint64_t stake = 0;  // chips put into the pot being decided
};

struct ShowdownCall {
  std::vector<Seat> players;          // in seat order
  std::optional<std::string> seer;    // a see; none: an agreed showdown
  std::optional<std::string> coverer; // the player who covered old_pot
  std::size_t cards_per_hand = 0;     // 3, 4 or 5; 0: as many as the first hand
  std::uint64_t pot = 0;              // chips in from players out of the hand
  std::uint64_t old_pot = 0;          // the pot the coverer covered
};

// One player's hand valued: the three-card slot of the kept three (for its
// category and description), its strength, and the key hands compare by
// (three cards: the strength itself; four and five: the best-of key).
struct SeatHand {
  std::uint32_t slot = 0;
  Strength strength = 0;
  BestKey key = 0;
  std::vector<Card> kept;       // the cards as given for three; else strongest first
  std::vector<Card> discarded;  // higher first
};

// Who takes a pot and why: seat indices in seat order, the reason in
// words and one of "hand", "discard", "seer_loses_ties", "shared",
// "tie_to_new_pot_winner".
struct Award {
  std::vector<std::size_t> winners;
  std::string reason;
  const char* decided_by = "";
};

struct ShowdownOutcome {
  bool see = false;
  std::vector<SeatHand> hands;  // seat order
  Award award;                  // the pot (the new pot when covered)
  std::optional<Award> cover;   // the old pot: the coverer against the new pot's winner
  std::uint64_t new_pot = 0;    // pot plus every contender's stake
  // Chips each seat receives (seat order); empty when no chips were given.
  // Shared pots split in equal whole chips, the odd chips one each to the
  // winners in seat order; every chip put in is paid out.
  std::vector<std::uint64_t> payouts;
};

// The field errors about one player are located at (InvalidHand::field()),
// their row being the player's seat.
inline constexpr const char* kPlayersField = "players";

// Decides one showdown.  Throws InvalidShowdown for a showdown the rules
// do not allow and InvalidHand for a hand the ruleset rejects, each
// message naming the player (ids quoted as Python's repr quotes them); an
// error about one player is located at its seat (kPlayersField).
// `ev` and `table` belong to the same ruleset.
ShowdownOutcome decide_showdown(const Evaluator& ev, const BestOfTable& table, const ShowdownCall& call);

// `text` quoted as Python's repr() quotes a str: 'a', "it's", 'tab\\t' (control
// characters escaped; other non-ASCII characters kept as they are).
std::string quoted(const std::string& text);

// Row i compares the seer's `width` (3, 4 or 5) cards with the seen
// player's, both stored back to back: out[i] = 1 when the seer's hand is
// strictly stronger, else 0.  Three cards compare by strength, four and five
// by best-of key (bestof.hpp: the three-card strength, then the discards),
// each width through a see kernel of the SIMD level in use that values both
// hands and checks them in one pass (kernels.hpp, bestof.hpp).  Every row is validated
// (both hands valid and no card in both); returns the first invalid row
// (outputs unspecified) or kNoBadRow.  Throws InvalidHand only for a bad
// width, and Cancelled when `cancel` is set before it finishes (checked
// between chunks of rows).  `ev` and `table` belong to the same ruleset.
std::size_t showdown_batch(const Evaluator& ev, const BestOfTable& table, const Card* seer,
                           const Card* seen, std::size_t rows, std::size_t width, std::uint8_t* out,
                           int threads, const CancelFlag* cancel = nullptr);

// Whose hand makes a row of a batch invalid: the seer's (a card in both
// hands counts as the seer's) or the seen player's.
enum class ShowdownSide : std::uint8_t { Seer, Seen };

// Why row `row` of a (seer, seen) batch of `width`-card hands is invalid
// ("" if it is valid): "row 17: seer: duplicate card 7h: cards 1 and 3 of the hand",
// "row 3: card 7h is in both hands (card 1 of the seer's, card 3 of the seen's)".
// `side`, if given, is set to whose hand it is.
std::string explain_showdown_row(int pack_size, const Card* seer, const Card* seen, std::size_t row,
                                 std::size_t width, ShowdownSide* side = nullptr);

}  // namespace prial
