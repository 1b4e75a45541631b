#include "prial/cards.hpp"

#include <array>
#include <cctype>

namespace prial {
namespace {

constexpr std::array<const char*, kRanks> kRankNames = {
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace"};
constexpr std::array<const char*, kRanks> kRankPlurals = {
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces"};
constexpr char kRankChars[] = "23456789TJQKA";
constexpr char kSuitChars[] = "cdhs";

bool is_separator(char c) { return c == ',' || std::isspace(static_cast<unsigned char>(c)); }

int rank_from_char(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case '2': return 0;  case '3': return 1;  case '4': return 2;
    case '5': return 3;  case '6': return 4;  case '7': return 5;
    case '8': return 6;  case '9': return 7;  case 'T': return 8;
    case 'J': return 9;  case 'Q': return 10; case 'K': return 11;
    case 'A': return 12;
    default: return -1;
  }
}

int suit_from_char(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'c': return 0; case 'd': return 1; case 'h': return 2; case 's': return 3;
    default: return -1;
  }
}

// Suit symbols in UTF-8: U+2660..U+2667 are E2 99 A0..A7 (black and white
// spade, heart, diamond, club).  Returns the suit and sets `length`.
int suit_from_symbol(std::string_view text, std::size_t pos, std::size_t& length) {
  if (pos + 3 > text.size()) return -1;
  const auto b0 = static_cast<unsigned char>(text[pos]);
  const auto b1 = static_cast<unsigned char>(text[pos + 1]);
  const auto b2 = static_cast<unsigned char>(text[pos + 2]);
  if (b0 != 0xE2 || b1 != 0x99 || b2 < 0xA0 || b2 > 0xA7) return -1;
  // Order of U+2660..: spade, heart, diamond, club, white spade, white heart, white diamond, white club.
  static constexpr int kSymbolSuit[8] = {3, 2, 1, 0, 3, 2, 1, 0};
  length = 3;
  // An emoji variation selector (U+FE0F, EF B8 8F) may follow the symbol.
  if (pos + 6 <= text.size() && static_cast<unsigned char>(text[pos + 3]) == 0xEF &&
      static_cast<unsigned char>(text[pos + 4]) == 0xB8 &&
      static_cast<unsigned char>(text[pos + 5]) == 0x8F) {
    length = 6;
  }
  return kSymbolSuit[b2 - 0xA0];
}

bool starts_with_ci(std::string_view text, std::size_t pos, std::string_view word) {
  if (pos + word.size() > text.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[pos + i])) != word[i]) return false;
  }
  return true;
}

// The token around `pos`, for error messages.
std::string token_at(std::string_view text, std::size_t pos) {
  std::size_t begin = pos, end = pos;
  while (begin > 0 && !is_separator(text[begin - 1])) --begin;
  while (end < text.size() && !is_separator(text[end])) ++end;
  return std::string(text.substr(begin, end - begin));
}

std::string printable(std::string_view text, std::size_t pos) {
  // One UTF-8 code point starting at pos.
  std::size_t len = 1;
  const auto b = static_cast<unsigned char>(text[pos]);
  if (b >= 0xF0) len = 4; else if (b >= 0xE0) len = 3; else if (b >= 0xC0) len = 2;
  return std::string(text.substr(pos, std::min(len, text.size() - pos)));
}

}  // namespace

char rank_char(int rank) noexcept { return rank >= 0 && rank < kRanks ? kRankChars[rank] : '?'; }
const char* rank_name(int rank) noexcept { return rank >= 0 && rank < kRanks ? kRankNames[rank] : "joker"; }
const char* rank_plural(int rank) noexcept { return rank >= 0 && rank < kRanks ? kRankPlurals[rank] : "jokers"; }

std::string format_card(int card) {
  if (card >= 0 && card < kStandardPack) {
    return {kRankChars[rank_of(card)], kSuitChars[suit_of(card)]};
  }
  if (card >= kFirstJoker && card < kMaxPack) return "X" + std::to_string(card - kFirstJoker + 1);
  throw InvalidHand("card index " + std::to_string(card) + " is out of range (0..54)");
}

std::string format_cards(const Card* cards, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i) out += ' ';
    out += format_card(cards[i]);
  }
  return out;
}

std::vector<Card> parse_cards(std::string_view text) {
  std::vector<Card> cards;
  bool joker_used[kMaxJokers] = {false, false, false};
  std::size_t pos = 0;
  auto fail = [&](std::size_t at, const std::string& why) -> void {
    throw InvalidHand("card " + std::to_string(cards.size() + 1) + " ('" + token_at(text, at) +
                      "'): " + why);
  };
  while (pos < text.size()) {
    if (is_separator(text[pos])) { ++pos; continue; }
    const std::size_t start = pos;
    const bool word_joker = starts_with_ci(text, pos, "joker");
    if (word_joker || std::toupper(static_cast<unsigned char>(text[pos])) == 'X') {
      pos += word_joker ? 5 : 1;
      int which = -1;
      if (pos < text.size() && text[pos] >= '1' && text[pos] <= '3') {
        which = text[pos] - '1';
        ++pos;
        if (joker_used[which]) fail(start, "joker X" + std::to_string(which + 1) + " appears twice");
      } else {
        for (int j = 0; j < kMaxJokers && which < 0; ++j) if (!joker_used[j]) which = j;
        if (which < 0) fail(start, "more than three jokers");
      }
      joker_used[which] = true;
      cards.push_back(static_cast<Card>(kFirstJoker + which));
      continue;
    }
    int rank;
    if (text[pos] == '1' && pos + 1 < text.size() && text[pos + 1] == '0') {
      rank = 8;  // "10" is a ten
      pos += 2;
    } else {
      rank = rank_from_char(text[pos]);
      if (rank < 0) fail(start, "unknown rank '" + printable(text, pos) + "'");
      ++pos;
    }
    if (pos >= text.size() || is_separator(text[pos])) fail(start, "missing suit");
    std::size_t suit_len = 1;
    int suit = suit_from_char(text[pos]);
    if (suit < 0) suit = suit_from_symbol(text, pos, suit_len);
    if (suit < 0) fail(start, "unknown suit '" + printable(text, pos) + "'");
    pos += suit_len;
    cards.push_back(static_cast<Card>(rank * 4 + suit));
  }
  return cards;
}

std::string hand_problem(const Card* cards, std::size_t count, int pack_size) {
  for (std::size_t i = 0; i < count; ++i) {
    const int c = cards[i];
    if (c >= pack_size) {
      if (c >= kFirstJoker && c < kMaxPack) {
        return "position " + std::to_string(i) + ": joker " + format_card(c) + " (index " +
               std::to_string(c) + ") but the rules have " +
               std::to_string(pack_size - kStandardPack) + " joker(s)";
      }
      return "position " + std::to_string(i) + ": card index " + std::to_string(c) +
             " is out of range (0.." + std::to_string(pack_size - 1) + ")";
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (cards[j] == c) {
        return "duplicate card " + format_card(c) + " at positions " + std::to_string(j) +
               " and " + std::to_string(i);
      }
    }
  }
  return {};
}

void validate_hand(const Card* cards, std::size_t count, int pack_size, const std::string& where) {
  std::string problem = hand_problem(cards, count, pack_size);
  if (!problem.empty()) throw InvalidHand(where.empty() ? problem : where + ": " + problem);
}

}  // namespace prial
