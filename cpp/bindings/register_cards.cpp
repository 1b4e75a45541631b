// Card text: parse_cards and format_cards; the most jokers a pack holds.
#include <string>
#include <vector>

#include "convert.hpp"
#include "prial/cards.hpp"
#include "register.hpp"

namespace prial::bindings {

void register_cards(py::module_& m) {
  m.attr("MAX_JOKERS") = kMaxJokers;
  m.def("parse_cards", [](const py::str& text) { return card_list(parse_cards(utf8_of(text))); },
        py::arg("text"),
        "parse_cards(text)\n--\n\n"
        "Card indices of card text (\"3s 2h Ah\", \"3s,2h,Ah\", \"AsKd7h\", \"10h X\"); InvalidHandError "
        "names what is wrong.");
  m.def("format_cards", [](const py::handle& cards) {
    const std::vector<Card> c = cards_from(cards);
    return format_cards(c.data(), c.size());
  }, py::arg("cards"),
        "format_cards(cards)\n--\n\n"
        "Card text (\"3s 2h Ah\", jokers as X1..X3) of card indices or text; the inverse of parse_cards.");
}

}  // namespace prial::bindings
