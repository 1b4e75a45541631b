#include "prial/cards.hpp"

#include <array>
#include <cctype>

#include "parallel.hpp"

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

// Byte -> meaning, locale-free (ASCII): the column parser reads millions
// of cards, and a <cctype> call per character would cost more than the rest.
struct CharTables {
  std::array<std::int8_t, 256> rank{};
  std::array<std::int8_t, 256> suit{};
  std::array<bool, 256> separator{};
};

constexpr CharTables make_char_tables() {
  CharTables t;
  for (int i = 0; i < 256; ++i) {
    t.rank[i] = -1;
    t.suit[i] = -1;
  }
  for (int r = 0; r < kRanks; ++r) {
    const auto upper = static_cast<unsigned char>(kRankChars[r]);
    t.rank[upper] = static_cast<std::int8_t>(r);
    if (upper >= 'A' && upper <= 'Z') t.rank[upper + ('a' - 'A')] = static_cast<std::int8_t>(r);
  }
  for (int s = 0; s < 4; ++s) {
    const auto lower = static_cast<unsigned char>(kSuitChars[s]);
    t.suit[lower] = static_cast<std::int8_t>(s);
    t.suit[lower - ('a' - 'A')] = static_cast<std::int8_t>(s);
  }
  for (const unsigned char c : {' ', '\t', '\n', '\v', '\f', '\r', ','}) t.separator[c] = true;
  return t;
}

constexpr CharTables kChars = make_char_tables();

bool is_separator(char c) { return kChars.separator[static_cast<unsigned char>(c)]; }
int rank_from_char(char c) { return kChars.rank[static_cast<unsigned char>(c)]; }
int suit_from_char(char c) { return kChars.suit[static_cast<unsigned char>(c)]; }

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

namespace {

// Where and why scanning a text hand stopped early.
struct ScanOutcome {
  ParseStatus status = ParseStatus::kOk;
  std::size_t card = 0;   // 1-based number of the offending card
  std::size_t token = 0;  // start of the offending token in the text
  std::size_t at = 0;     // the offending character
  int joker = 0;          // the repeated joker (1..3), for kJokerTwice
};

// The one card grammar (docs/rules.md, "1. Cards"), shared by parse_cards
// and the column parser.  Calls emit(card) for each card in order; emit returns false when
// it has no room for another card (kTooManyCards).  Never throws.
template <class Emit>
ScanOutcome scan_cards(std::string_view text, Emit&& emit) {
  bool joker_used[kMaxJokers] = {false, false, false};
  std::size_t pos = 0, count = 0;
  auto stop = [&](ParseStatus status, std::size_t token, std::size_t at) {
    ScanOutcome out;
    out.status = status;
    out.card = count + 1;
    out.token = token;
    out.at = at;
    return out;
  };
  while (pos < text.size()) {
    if (is_separator(text[pos])) { ++pos; continue; }
    const std::size_t start = pos;
    int card;
    const char lower = static_cast<char>(text[pos] | 0x20);  // ASCII letters only matter here
    const bool word_joker = lower == 'j' && starts_with_ci(text, pos, "joker");
    if (word_joker || lower == 'x') {
      pos += word_joker ? 5 : 1;
      int which = -1;
      if (pos < text.size() && text[pos] >= '1' && text[pos] <= '3') {
        which = text[pos] - '1';
        ++pos;
        if (joker_used[which]) {
          ScanOutcome out = stop(ParseStatus::kJokerTwice, start, start);
          out.joker = which + 1;
          return out;
        }
      } else {
        for (int j = 0; j < kMaxJokers && which < 0; ++j) if (!joker_used[j]) which = j;
        if (which < 0) return stop(ParseStatus::kTooManyJokers, start, start);
      }
      joker_used[which] = true;
      card = kFirstJoker + which;
    } else {
      int rank;
      if (text[pos] == '1' && pos + 1 < text.size() && text[pos + 1] == '0') {
        rank = 8;  // "10" is a ten
        pos += 2;
      } else {
        rank = rank_from_char(text[pos]);
        if (rank < 0) return stop(ParseStatus::kUnknownRank, start, pos);
        ++pos;
      }
      if (pos >= text.size() || is_separator(text[pos])) return stop(ParseStatus::kMissingSuit, start, pos);
      std::size_t suit_len = 1;
      int suit = suit_from_char(text[pos]);
      if (suit < 0) suit = suit_from_symbol(text, pos, suit_len);
      if (suit < 0) return stop(ParseStatus::kUnknownSuit, start, pos);
      pos += suit_len;
      card = rank * 4 + suit;
    }
    if (!emit(static_cast<Card>(card))) return stop(ParseStatus::kTooManyCards, start, start);
    ++count;
  }
  return {};
}

// "card 2 ('Zz'): unknown rank 'Z'" for a scan that stopped early.
std::string scan_message(std::string_view text, const ScanOutcome& o, std::size_t max_cards) {
  std::string why;
  switch (o.status) {
    case ParseStatus::kUnknownRank: why = "unknown rank '" + printable(text, o.at) + "'"; break;
    case ParseStatus::kMissingSuit: why = "missing suit"; break;
    case ParseStatus::kUnknownSuit: why = "unknown suit '" + printable(text, o.at) + "'"; break;
    case ParseStatus::kJokerTwice: why = "joker X" + std::to_string(o.joker) + " appears twice"; break;
    case ParseStatus::kTooManyJokers: why = "more than three jokers"; break;
    case ParseStatus::kTooManyCards: why = "more than " + std::to_string(max_cards) + " cards"; break;
    default: why = "invalid"; break;
  }
  return "card " + std::to_string(o.card) + " ('" + token_at(text, o.token) + "'): " + why;
}

}  // namespace

std::vector<Card> parse_cards(std::string_view text) {
  std::vector<Card> cards;
  const ScanOutcome o = scan_cards(text, [&](Card c) { cards.push_back(c); return true; });
  if (o.status != ParseStatus::kOk) throw InvalidHand(scan_message(text, o, 0));
  return cards;
}

std::string read_as(const Card* cards, std::size_t count) {
  constexpr std::size_t kShown = 15;
  std::string out = " (read as";
  for (std::size_t i = 0; i < count && i < kShown; ++i) {
    // An index past the pack (from an array) is shown as the number it is.
    out += ' ' + (cards[i] < kMaxPack ? format_card(cards[i]) : "index " + std::to_string(cards[i]));
  }
  return out + (count > kShown ? " ...)" : ")");
}

std::string hand_problem(const Card* cards, std::size_t count, int pack_size) {
  for (std::size_t i = 0; i < count; ++i) {
    const int c = cards[i];
    if (c >= pack_size) {
      // Cards are counted from 1 in every message, as the text parser's are.
      if (c >= kFirstJoker && c < kMaxPack) {
        return "card " + std::to_string(i + 1) + ": joker " + format_card(c) + " (index " +
               std::to_string(c) + ") but the rules have " +
               std::to_string(pack_size - kStandardPack) + " joker(s)";
      }
      return "card " + std::to_string(i + 1) + ": card index " + std::to_string(c) +
             " is out of range (0.." + std::to_string(pack_size - 1) + ")";
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (cards[j] == c) {
        return "duplicate card " + format_card(c) + ": cards " + std::to_string(j + 1) + " and " +
               std::to_string(i + 1) + " of the hand";
      }
    }
  }
  return {};
}

void validate_hand(const Card* cards, std::size_t count, int pack_size, const std::string& where) {
  std::string problem = hand_problem(cards, count, pack_size);
  if (!problem.empty()) throw InvalidHand(where.empty() ? problem : where + ": " + problem);
}

namespace {

std::string_view row_text(const TextColumn& c, std::size_t row) {
  const auto i = static_cast<std::size_t>(c.offset) + row;
  std::int64_t begin, end;
  if (c.large_offsets) {
    const auto* o = static_cast<const std::int64_t*>(c.offsets);
    begin = o[i];
    end = o[i + 1];
  } else {
    const auto* o = static_cast<const std::int32_t*>(c.offsets);
    begin = o[i];
    end = o[i + 1];
  }
  return {c.data + begin, static_cast<std::size_t>(end - begin)};
}

bool row_valid(const TextColumn& c, std::size_t row) {
  if (c.validity == nullptr) return true;
  const auto i = static_cast<std::size_t>(c.offset) + row;
  return (c.validity[i >> 3] >> (i & 7)) & 1;
}

}  // namespace

// Rows between cancellation checks: ~4 ms on one core (about 30 ns a row).
constexpr std::size_t kParseChunk = std::size_t{1} << 17;

void parse_cards_column(const TextColumn& column, std::size_t width, int pack_size, Card* cards,
                        std::uint8_t* counts, ParseStatus* status, std::uint8_t* where, int threads,
                        const CancelFlag* cancel) {
  parallel_chunks(column.rows, threads, kParseChunk, cancel, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      Card* hand = cards + r * width;
      std::size_t n = 0;
      ParseStatus st = ParseStatus::kOk;
      std::size_t at = 0;
      if (!row_valid(column, r)) {
        st = ParseStatus::kNull;
      } else {
        const ScanOutcome o = scan_cards(row_text(column, r), [&](Card c) {
          if (n == width) return false;
          hand[n++] = c;
          return true;
        });
        st = o.status;
        at = o.card;
        // A repeated card or a joker the pack lacks: the first offender.
        for (std::size_t i = 0; st == ParseStatus::kOk && i < n; ++i) {
          if (hand[i] >= pack_size) { st = ParseStatus::kNotInPack; at = i + 1; break; }
          for (std::size_t j = 0; j < i; ++j) {
            if (hand[j] == hand[i]) { st = ParseStatus::kDuplicate; at = i + 1; break; }
          }
        }
      }
      for (std::size_t i = n; i < width; ++i) hand[i] = 0xFF;
      counts[r] = static_cast<std::uint8_t>(n);
      status[r] = st;
      where[r] = static_cast<std::uint8_t>(at);
    }
  });
}

std::string text_hand_problem(std::string_view text, std::size_t width, int pack_size) {
  std::vector<Card> hand;
  const ScanOutcome o = scan_cards(text, [&](Card c) {
    if (hand.size() == width) return false;
    hand.push_back(c);
    return true;
  });
  if (o.status != ParseStatus::kOk) return scan_message(text, o, width);
  return hand_problem(hand.data(), hand.size(), pack_size);
}

}  // namespace prial
