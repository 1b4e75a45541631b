#include "prial/service/showdown_response.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

#include "wire.hpp"

namespace prial::service {
namespace {

// Field numbers of prial.v1.ShowdownResponse and the messages it holds.
namespace showdown {
constexpr std::uint32_t kKind = 1, kSeer = 2, kWinners = 3, kReason = 4, kDecidedBy = 5, kHands = 6, kPot = 7,
                        kPayouts = 8, kCover = 9;
}
namespace player_hand {
constexpr std::uint32_t kId = 1, kCards = 2, kBlind = 3, kStake = 4, kStrength = 5, kKey = 6, kCategory = 7,
                        kDescription = 8, kKept = 9, kDiscarded = 10;
}
namespace map_entry {  // a map<string, uint64> entry
constexpr std::uint32_t kKey = 1, kValue = 2;
}
namespace cover_result {
constexpr std::uint32_t kCoverer = 1, kOldPot = 2, kWinners = 3, kReason = 4, kDecidedBy = 5;
}

std::string_view bytes_of(const std::vector<Card>& cards) {
  return {reinterpret_cast<const char*>(cards.data()), cards.size()};
}

}  // namespace

std::string encode_showdown_response(const ShowdownCall& call, const ShowdownOutcome& out,
                                     const ThreeCardTable& three) {
  const std::vector<Seat>& players = call.players;
  wire::Writer response;
  response.text(showdown::kKind, out.see ? "see" : "agreed");
  if (call.seer) response.present_text(showdown::kSeer, *call.seer);
  for (const std::size_t w : out.award.winners) response.text(showdown::kWinners, players[w].id);
  response.text(showdown::kReason, out.award.reason);
  response.text(showdown::kDecidedBy, out.award.decided_by);
  for (std::size_t i = 0; i < players.size(); ++i) {
    const SeatHand& h = out.hands[i];
    wire::Writer hand;
    hand.text(player_hand::kId, players[i].id);
    hand.text(player_hand::kCards, bytes_of(players[i].cards));
    hand.uint(player_hand::kBlind, players[i].blind ? 1 : 0);
    hand.uint(player_hand::kStake, players[i].stake);
    hand.uint(player_hand::kStrength, h.strength);
    hand.uint(player_hand::kKey, h.key);
    hand.uint(player_hand::kCategory, static_cast<std::uint64_t>(three.category(h.slot)));
    hand.text(player_hand::kDescription, three.description(h.slot));
    hand.text(player_hand::kKept, bytes_of(h.kept));
    hand.text(player_hand::kDiscarded, bytes_of(h.discarded));
    response.message(showdown::kHands, hand);
  }
  response.uint(showdown::kPot, out.new_pot);
  for (std::size_t i = 0; i < out.payouts.size(); ++i) {
    wire::Writer entry;
    entry.text(map_entry::kKey, players[i].id);
    entry.uint(map_entry::kValue, out.payouts[i]);
    response.message(showdown::kPayouts, entry);
  }
  if (out.cover) {
    wire::Writer cover;
    cover.text(cover_result::kCoverer, *call.coverer);
    cover.uint(cover_result::kOldPot, call.old_pot);
    for (const std::size_t w : out.cover->winners) cover.text(cover_result::kWinners, players[w].id);
    cover.text(cover_result::kReason, out.cover->reason);
    cover.text(cover_result::kDecidedBy, out.cover->decided_by);
    response.message(showdown::kCover, cover);
  }
  return response.take();
}

}  // namespace prial::service
