"""Retained blind hands for the plain reference (tests/table_reference.py),
from docs/rules.md ("Retained blind hands and the next deal") alone: the
pot that stays when everyone folds to a blind player, the hand that player
keeps beside a new one, dealt blind or, with retain_blind="face_up", face
up for every other player to beat or fold to, and the deal that follows.

Nothing here imports prial.  The cards of every hand are taken as known.
"""

from __future__ import annotations

from .table_reference import IN, RefDeal, RefTable, hand_key


class RetainedDeal(RefDeal):
    """A deal that may carry a pot and a kept hand from the one before."""

    def __init__(self, table: RefTable, players, hands, dealer: int = 0, stacks=None, pot: int = 0,
                 keeper=None, kept=None) -> None:
        super().__init__(table, players, hands, dealer, stacks)
        self.pots[0][0] += pot
        self.hands = list(self.hands)
        self.keeper = keeper             # the seat with two hands, if any
        self.two = keeper is not None    # still holding both
        self.other = None                # of the two, the hand a look does not show
        self.deciding = False            # the keeper has looked and not yet chosen
        self.face_up = None              # the hand dealt face up, every card of it
        self.face_up_held = False
        self.sees_own = [False] * self.n
        self.stayer = None               # everyone folded to this blind seat: the pot stays
        if keeper is not None:
            new = self.hands[keeper]
            if table.retain_blind == "face_up":
                # a look shows the kept hand; the new one lies face up on the table
                self.hands[keeper], self.other = tuple(kept), new
                self.face_up, self.face_up_held = new, True
            else:
                self.other = tuple(kept)

    def copy(self) -> RetainedDeal:
        d = super().copy()
        d.hands = list(self.hands)
        d.sees_own = list(self.sees_own)
        return d

    def face_up_rule(self) -> bool:
        return self.table.retain_blind == "face_up"

    # ---- the rules the single deal leaves out ------------------------------

    def may_fold_first(self, seat: int) -> bool:
        return self.deciding and seat == self.keeper

    def two_hands(self, seat: int) -> bool:
        return self.two and seat == self.keeper

    def short_of_face_up(self, seat: int) -> bool:
        keeper = self.keeper
        if not self.face_up_held or seat == keeper or self.status[keeper] not in IN:
            return False
        if self.status[seat] != "open" or self.hands[seat] is None or self.face_up is None:
            return False
        return self.key(seat) <= self.face_up_key()

    def face_up_key(self) -> tuple:
        if not self.two:  # kept: valued as played, discards and all
            return self.key(self.keeper)
        return self.blind_key(self.face_up)

    def blind_key(self, hand) -> tuple:
        return hand_key(self.table, hand, () if self.table.cards == 3 else None)

    def key(self, seat: int) -> tuple:
        if self.two_hands(seat):  # two unlooked hands: the better plays
            return max(super().key(seat), self.blind_key(self.other))
        return super().key(seat)

    # ---- doing it ----------------------------------------------------------

    def _apply(self, kind: str, amount, discards) -> None:
        seat = self.to_act
        if seat == self.keeper and self.deciding:
            self.deciding = self.two = False
            if kind == "fold":
                # the looked hand goes; the other is played: blind, or open when it lies face up
                self.history.append(("fold", self.players[seat], None, ()))
                self.hands[seat] = self.other
                if self.face_up_rule():
                    self.status[seat] = "open"
                    self.sees_own[seat] = self.shown_to_all[seat] = True
                    self.must_discard = seat if self.table.discards else None
                else:
                    self.status[seat] = "blind"
                    self.sees_own[seat] = False
                    self.must_discard = None
                return
            self.face_up_held = False  # anything else keeps the looked hand and folds the other
        if kind == "look":
            self.sees_own[seat] = True
            self.deciding = self.two_hands(seat)
        super()._apply(kind, amount, discards)

    def _settle(self, ending: str, winners: list[int]) -> None:
        if ending == "folded_out" and self.table.retain_blind and len(self.pots) == 1 and self.blind(winners[0]):
            self.over, self.ending, self.to_act = True, "pot_stays", None
            self.payouts = [0] * self.n
            self.pot_winners = [[]]
            self.stayer = winners[0]
            return
        if self.two:
            better = self.blind_key(self.other) > super().key(self.keeper)
            if better:
                self.hands[self.keeper] = self.other
            self.two = False
        super()._settle(ending, winners)

    # ---- what each player may see ------------------------------------------

    def visible(self, viewer) -> dict[str, frozenset]:
        v = None if viewer is None else self.seat_of(viewer)
        out = {}
        for s in range(self.n):
            hand = self.hands[s]
            if hand is None:
                continue
            if s == v and self.sees_own[s]:
                out[self.players[s]] = frozenset(hand)
            elif self.shown_to_all[s] or (v is not None and v in self.shown[s]):
                out[self.players[s]] = frozenset(c for c in hand if c not in (self.discarded[s] or ()))
            elif s == self.keeper and self.face_up_held and self.status[s] in IN:
                out[self.players[s]] = frozenset(self.face_up)
        return out

    # ---- the next deal -----------------------------------------------------

    def next_seating(self, retain: bool):
        """(players, dealer, stacks, pot, keeper's name, kept hand) of the next
        deal: stacks carried (a player with no chips drops out), the dealer the
        next player clockwise still seated, a pot that stayed carried, and
        the blind hand of the player it stayed with kept when asked."""
        assert self.over
        seated = list(range(self.n))
        stacks = None
        if self.stacks is not None:
            chips = [self.stacks[s] + self.payouts[s] for s in range(self.n)]
            seated = [s for s in seated if chips[s] > 0]
            stacks = [chips[s] for s in seated]
        players = [self.players[s] for s in seated]
        dealer = next((seated.index(s) for s in ((self.dealer + k) % self.n for k in range(1, self.n + 1))
                       if s in seated), 0)
        pot = self.pots[0][0] if self.stayer is not None else 0
        keeper = kept = None
        if retain and self.stayer is not None and self.stayer in seated:
            keeper, kept = self.players[self.stayer], self.hands[self.stayer]
        return players, dealer, stacks, pot, keeper, kept
