// What table.cpp, table_draw.cpp and table_settle.cpp share: recording
// events, moving chips and turns, and the end of the betting.
#pragma once

#include "prial/table.hpp"

namespace prial::table {

// Records an event when the caller keeps them (events not null).
inline void emit(Events* events, EventKind kind, int player, Chips amount = 0, int pot = 0, std::uint32_t to = 0) {
  if (events != nullptr)
    events->push_back(Event{kind, static_cast<std::uint8_t>(player), static_cast<std::uint8_t>(pot), amount, to});
}

inline Chips half_up(Chips x) noexcept { return (x + 1) / 2; }

// The next seat after `from`, clockwise, that is in; kNobody if none.
std::uint8_t next_in(const DealState& s, int from) noexcept;

// Seat i puts `amount` into the live pot (from its stack, with stacks).
void put_in(DealState& s, int i, Chips amount) noexcept;

// Whether `card` is among the first `cards` cards of the hand.
bool holds(const PlayerState& p, int cards, Card c) noexcept;

// Draw Brag's betting (table_draw.cpp), which start(), legal_actions(),
// apply() and explain() hand over to at a Structure::Draw table.
void draw_start(const Table& t, DealState& s, Events* events);
int draw_legal_actions(const Table& t, const DealState& s, Legal* out) noexcept;
Code draw_apply(const Table& t, DealState& s, const Move& m, Events* events);
std::string draw_explain(const Table& t, const DealState& s, const Move& m, Code code);

// The most a stake of seat i may be by the table's limits, before its
// stack (kNoLimit: none); never below the least stake.
Chips limit_most(const Table& t, const DealState& s, int i) noexcept;

// Ends the betting: shows the hands the ending calls for, decides every
// pot newest first and pays it (docs/rules.md, "Covering the pot").
// Leaves the result unknown when a hand it needs is unknown.
void settle(const Table& t, DealState& s, Ending ending, Events* events);

// A sideshow accepted: the two hands shown to each other and the lower one
// folded (the asker on a tie).  False when a hand is unknown: the deal
// then ends with its result unknown.
bool side_compare(const Table& t, DealState& s, int asker, int asked, Events* events);

}  // namespace prial::table
