// One showdown decided in full (decide_showdown) and encoded for the wire
// (service::encode_showdown_response), from a table built out of the fuzz
// bytes: 0..6 players, ids (repeated, empty, quotes, any bytes), hands of
// any size dealt mostly from one shuffled pack, blind flags, stakes, pot
// and old pot near 2**64, a seer and a coverer who may not be at the table.
// Invariants: a rejected showdown throws InvalidHand (InvalidShowdown is
// one; nothing else), located at a seat of the table when about a player;
// a decided one has winners at the table, the strongest hand among them
// (or the seen player on a tie in a see), and pays out exactly the chips
// put in; the encoding is well-formed protocol buffers whose kind, winners,
// pot and payouts say the same as the outcome.
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_input.hpp"
#include "prial/service/showdown_response.hpp"
#include "prial/showdown.hpp"

namespace {

using u128 = unsigned __int128;

// A minimal protocol buffers reader: the top-level fields of a message.
struct Field {
  std::uint32_t number = 0;
  std::uint32_t wire_type = 0;
  std::uint64_t varint = 0;
  std::string bytes;
};

bool read_varint(const std::string& s, std::size_t& pos, std::uint64_t& out) {
  out = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos >= s.size()) return false;
    const auto b = static_cast<std::uint8_t>(s[pos++]);
    out |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

std::vector<Field> parse_message(const std::string& s) {
  std::vector<Field> fields;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::uint64_t tag;
    FUZZ_CHECK(read_varint(s, pos, tag));
    Field f;
    f.number = static_cast<std::uint32_t>(tag >> 3);
    f.wire_type = static_cast<std::uint32_t>(tag & 7);
    FUZZ_CHECK(f.number >= 1);
    if (f.wire_type == 0) {
      FUZZ_CHECK(read_varint(s, pos, f.varint));
    } else {
      FUZZ_CHECK(f.wire_type == 2);  // this message has varints and length-delimited fields only
      std::uint64_t n;
      FUZZ_CHECK(read_varint(s, pos, n) && n <= s.size() - pos);
      f.bytes = s.substr(pos, n);
      pos += n;
    }
    fields.push_back(std::move(f));
  }
  return fields;
}

const std::uint64_t kChips[] = {0, 0, 0, 1, 2, 3, 1000, UINT64_MAX / 2, UINT64_MAX / 2 + 1, UINT64_MAX - 1, UINT64_MAX};

std::uint64_t chips(prial_fuzz::Input& in) {
  const std::uint8_t b = in.byte();
  return b < 240 ? kChips[b % (sizeof kChips / sizeof kChips[0])] : in.u64();
}

std::string id(prial_fuzz::Input& in, std::size_t seat) {
  static const char* const odd[] = {"", "a", "b", "it's", "\"'", "tab\there", "\x7f\x80\xff", "é"};
  const std::uint8_t b = in.byte();
  if (b < 200) return std::string(1, static_cast<char>('a' + seat));
  if (b < 248) return odd[b % 8];
  return in.bytes(in.in(0, 12));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  prial_fuzz::Input in(data, size);
  const prial::RulesConfig& rules = prial_fuzz::pick_rules(in);
  const prial::Evaluator& ev = prial_fuzz::evaluator(rules);
  const auto table = prial::best_of_table(rules);
  const int pack = rules.pack_size();

  std::vector<prial::Card> deck(static_cast<std::size_t>(pack));
  std::iota(deck.begin(), deck.end(), prial::Card{0});
  for (std::size_t i = deck.size() - 1; i > 0; --i) std::swap(deck[i], deck[in.in(0, i)]);
  std::size_t dealt = 0;

  prial::ShowdownCall call;
  const std::size_t players = in.in(0, 6);
  const std::size_t width = in.in(3, 5);
  for (std::size_t i = 0; i < players; ++i) {
    prial::Seat& seat = call.players.emplace_back();
    seat.id = id(in, i);
    const std::size_t count = in.byte() < 240 ? width : in.in(0, 7);
    for (std::size_t c = 0; c < count; ++c) {
      seat.cards.push_back(in.byte() < 250 ? deck[dealt++ % deck.size()] : in.byte());
    }
    seat.blind = in.in(0, 3) == 0;
    seat.stake = chips(in);
  }
  const std::uint8_t roles = in.byte();
  auto someone = [&]() -> std::string {
    return players && in.byte() < 240 ? call.players[in.in(0, players - 1)].id : id(in, 7);
  };
  if (roles & 1) call.seer = someone();
  if (roles & 2) call.coverer = someone();
  call.cards_per_hand = (roles & 4) ? in.in(0, 6) : 0;
  call.pot = chips(in);
  call.old_pot = (roles & 8) ? chips(in) : 0;

  prial::ShowdownOutcome out;
  try {
    out = prial::decide_showdown(ev, *table, call);
  } catch (const prial::InvalidHand& e) {
    FUZZ_CHECK(e.field().empty() == (e.row() < 0));
    FUZZ_CHECK(e.field().empty() ||
               (e.field() == prial::kPlayersField && e.row() < static_cast<long long>(players)));
    FUZZ_CHECK(*e.what() != '\0');
    return 0;
  }

  // Decided: the hands are the scalar path's, the winners at the table.
  FUZZ_CHECK(players >= 2 && out.hands.size() == players);
  for (std::size_t i = 0; i < players; ++i) {
    const prial::Seat& seat = call.players[i];
    // Three cards compare by strength, four and five by best-of key.
    const prial::BestKey key = table->key(seat.cards.data(), seat.cards.size());
    FUZZ_CHECK(out.hands[i].key == (seat.cards.size() == 3 ? prial::strength_of_key(key) : key));
  }
  std::size_t coverer = players;
  for (std::size_t i = 0; call.coverer && i < players; ++i) {
    if (call.players[i].id == *call.coverer) coverer = i;
  }
  FUZZ_CHECK(!out.award.winners.empty() && !out.award.reason.empty());
  prial::BestKey best = 0;
  for (std::size_t i = 0; i < players; ++i) {
    if (i != coverer) best = std::max(best, out.hands[i].key);
  }
  for (const std::size_t w : out.award.winners) {
    FUZZ_CHECK(w < players && w != coverer);
    if (!out.see) FUZZ_CHECK(out.hands[w].key == best);
  }
  if (out.see) {
    FUZZ_CHECK(out.award.winners.size() == 1);
    std::size_t seer = players, seen = players;
    for (std::size_t i = 0; i < players; ++i) {
      if (call.players[i].id == *call.seer) seer = i;
      else if (i != coverer) seen = i;
    }
    FUZZ_CHECK(seer < players && seen < players);
    // The seer wins only with a strictly stronger hand.
    FUZZ_CHECK((out.award.winners[0] == seer) == (out.hands[seer].key > out.hands[seen].key));
  }
  FUZZ_CHECK(out.cover.has_value() == (coverer < players));

  // Every chip put in is paid out, none more.
  u128 put_in = static_cast<u128>(call.pot) + call.old_pot, paid = 0;
  for (const prial::Seat& seat : call.players) put_in += seat.stake;
  for (const std::uint64_t p : out.payouts) paid += p;
  FUZZ_CHECK(out.payouts.empty() ? put_in == 0 : (paid == put_in && out.payouts.size() == players));
  FUZZ_CHECK(static_cast<u128>(out.new_pot) + call.old_pot == put_in);

  // The wire form says the same.
  const std::string wire = prial::service::encode_showdown_response(call, out, ev.table());
  std::vector<std::string> winners;
  u128 wire_paid = 0;
  std::size_t payout_entries = 0;
  std::uint64_t wire_pot = 0;
  std::string kind;
  for (const Field& f : parse_message(wire)) {
    FUZZ_CHECK(f.number <= 9);
    if (f.number == 1) kind = f.bytes;
    if (f.number == 3) winners.push_back(f.bytes);
    if (f.number == 7) wire_pot = f.varint;
    if (f.number == 6 || f.number == 9) parse_message(f.bytes);  // nested messages well-formed too
    if (f.number == 8) {
      ++payout_entries;
      for (const Field& e : parse_message(f.bytes)) {
        if (e.number == 2) wire_paid += e.varint;
      }
    }
  }
  FUZZ_CHECK(kind == (out.see ? "see" : "agreed"));
  FUZZ_CHECK(winners.size() == out.award.winners.size());
  for (std::size_t i = 0; i < winners.size(); ++i) FUZZ_CHECK(winners[i] == call.players[out.award.winners[i]].id);
  FUZZ_CHECK(wire_pot == out.new_pot);
  FUZZ_CHECK(wire_paid == paid && payout_entries == out.payouts.size());
  return 0;
}
