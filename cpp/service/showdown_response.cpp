#include "prial/service/showdown_response.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace prial::service {
namespace {

// Protocol buffers encoding, the parts these messages use: varints and
// length-delimited fields.  proto3 leaves fields at their default out.
class Writer {
 public:
  void uint(int field, std::uint64_t value) {
    if (value == 0) return;
    tag(field, kVarint);
    varint(value);
  }
  void text(int field, std::string_view value) {
    if (!value.empty()) length_delimited(field, value);
  }
  // An `optional string`: present even when empty.
  void present_text(int field, std::string_view value) { length_delimited(field, value); }
  void cards(int field, const std::vector<Card>& cards) {
    text(field, {reinterpret_cast<const char*>(cards.data()), cards.size()});
  }
  void message(int field, const Writer& inner) { length_delimited(field, inner.out_); }

  std::string take() { return std::move(out_); }

 private:
  static constexpr int kVarint = 0;
  static constexpr int kLengthDelimited = 2;

  void varint(std::uint64_t value) {
    while (value >= 0x80) {
      out_ += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out_ += static_cast<char>(value);
  }
  void tag(int field, int wire_type) { varint(static_cast<std::uint64_t>(field) << 3 | static_cast<unsigned>(wire_type)); }
  void length_delimited(int field, std::string_view value) {
    tag(field, kLengthDelimited);
    varint(value.size());
    out_.append(value);
  }

  std::string out_;
};

}  // namespace

std::string encode_showdown_response(const ShowdownCall& call, const ShowdownOutcome& out,
                                     const ThreeCardTable& three) {
  const std::vector<Seat>& players = call.players;
  Writer response;
  response.text(1, out.see ? "see" : "agreed");                          // kind
  if (call.seer) response.present_text(2, *call.seer);                  // seer
  for (const std::size_t w : out.award.winners) response.text(3, players[w].id);  // winners
  response.text(4, out.award.reason);                                   // reason
  response.text(5, out.award.decided_by);                               // decided_by
  for (std::size_t i = 0; i < players.size(); ++i) {                    // hands: PlayerHand
    const SeatHand& h = out.hands[i];
    Writer hand;
    hand.text(1, players[i].id);
    hand.cards(2, players[i].cards);
    hand.uint(3, players[i].blind ? 1 : 0);
    hand.uint(4, players[i].stake);
    hand.uint(5, h.strength);
    hand.uint(6, h.key);
    hand.uint(7, static_cast<std::uint64_t>(three.category(h.slot)));
    hand.text(8, three.description(h.slot));
    hand.cards(9, h.kept);
    hand.cards(10, h.discarded);
    response.message(6, hand);
  }
  response.uint(7, out.new_pot);                                        // pot
  for (std::size_t i = 0; i < out.payouts.size(); ++i) {                // payouts: map<string, uint64>
    Writer entry;
    entry.text(1, players[i].id);
    entry.uint(2, out.payouts[i]);
    response.message(8, entry);
  }
  if (out.cover) {                                                      // cover: CoverResult
    Writer cover;
    cover.text(1, *call.coverer);
    cover.uint(2, call.old_pot);
    for (const std::size_t w : out.cover->winners) cover.text(3, players[w].id);
    cover.text(4, out.cover->reason);
    cover.text(5, out.cover->decided_by);
    response.message(9, cover);
  }
  return response.take();
}

}  // namespace prial::service
