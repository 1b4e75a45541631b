// Card text: parse_cards on arbitrary bytes.  Invariants: parsing either
// throws InvalidHand or gives card indices in 0..54 with no joker twice;
// format then parse gives the same indices back (and format is stable);
// parse_cards and text_hand_problem (the column parser's explanation)
// agree on which texts are fine.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "prial/cards.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<prial::Card> cards;
  bool parsed = true;
  try {
    cards = prial::parse_cards(text);
  } catch (const prial::InvalidHand& e) {
    parsed = false;
    FUZZ_CHECK(std::string(e.what()).rfind("card ", 0) == 0);  // names the card
  }
  // Unlimited width, every joker in the pack: the explanation is empty
  // exactly when the text parses into distinct cards.
  const std::string problem = prial::text_hand_problem(text, size + 1, prial::kMaxPack);
  if (!parsed) {
    FUZZ_CHECK(!problem.empty());
    return 0;
  }
  bool jokers[prial::kMaxJokers] = {};
  for (const prial::Card c : cards) {
    FUZZ_CHECK(c < prial::kMaxPack);
    if (prial::is_joker(c)) {
      FUZZ_CHECK(!jokers[c - prial::kFirstJoker]);  // plain X takes the next free joker
      jokers[c - prial::kFirstJoker] = true;
    }
  }
  FUZZ_CHECK(problem.empty() == prial::hand_problem(cards.data(), cards.size(), prial::kMaxPack).empty());
  const std::string formatted = prial::format_cards(cards.data(), cards.size());
  FUZZ_CHECK(prial::parse_cards(formatted) == cards);
  FUZZ_CHECK(prial::format_cards(cards.data(), cards.size()) == formatted);
  std::string one_by_one;
  for (const prial::Card c : cards) one_by_one += (one_by_one.empty() ? "" : " ") + prial::format_card(c);
  FUZZ_CHECK(one_by_one == formatted);
  return 0;
}
