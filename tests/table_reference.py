"""A deliberately simple reference for the betting table of docs/rules.md
("10. The betting") and the SPEC's section 8, written apart from the engine:
plain Python, mutable lists, every rule spelled out where it applies.

Nothing here imports prial.  Three-card hands are ranked by the plain
reference in tests/reference.py; four and five cards by trying every kept
three with the discards as the tie-break (docs/rules.md section 4).

A RefDeal is treated as immutable by its users: ``act`` returns a copy.
Refused actions raise ``Refused`` with the code of the docs' table.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

from .reference import natural

KINDS = ("look", "discard", "stake", "see", "fold", "cover", "sideshow", "accept", "decline", "agree_showdown")
TAKES_NO_AMOUNT = ("look", "discard", "fold", "agree_showdown", "accept", "decline")
IN = ("blind", "open")

# game: (ruleset preset, cards, see_cost, raise_limit, sideshow, agreed_showdown, cover), SPEC section 8
GAMES = {
    "brag": ("brag", 3, 2, None, False, True, True),
    "four_card_brag": ("brag", 4, 2, None, False, True, True),
    "five_card_brag": ("brag", 5, 2, None, False, True, True),
    "teen_patti": ("teen_patti", 3, 1, "double", True, False, False),
}
# the ruleset presets' defaults that change the order of hands (SPEC section 3)
PRESET_DEFAULTS = {"brag": ("top", "three"), "teen_patti": ("second", "ace")}


class Refused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class RefTable:
    game: str = "brag"
    preset: str = "brag"
    ace_two_three: str = "top"
    top_prial: str = "three"
    cards: int = 3
    ante: int = 1
    min_stake: int = 1
    max_stake: int | None = None
    raise_limit: int | str | None = None
    pot_limit: bool = False
    pot_cap: int | None = None
    blind_turns: int | None = None
    see_cost: int = 2
    sideshow: bool = False
    agreed_showdown: bool = True
    cover: bool = True
    retain_blind: bool | str = False  # the deals that follow are tests/table_reference_retained.py's

    @property
    def discards(self) -> int:
        return self.cards - 3


def make_table(game: str = "brag", preset: str | None = None, ace_two_three: str | None = None,
               top_prial: str | None = None, ante: int = 1, min_stake: int | None = None, max_stake=None,
               raise_limit=None, pot_limit: bool = False, pot_cap=None, blind_turns=None, see_cost=None,
               sideshow=None, agreed_showdown=None, cover=None, retain_blind=False) -> RefTable:
    """The table with every None resolved to the game's default."""
    g_preset, cards, g_see, g_raise, g_side, g_agree, g_cover = GAMES[game]
    preset = preset or g_preset
    a23, top = PRESET_DEFAULTS[preset]
    if min_stake is None:
        min_stake = 2 * ante if game == "teen_patti" and ante > 0 else 1
    return RefTable(
        game=game, preset=preset, ace_two_three=ace_two_three or a23, top_prial=top_prial or top, cards=cards,
        ante=ante, min_stake=min_stake, max_stake=max_stake,
        raise_limit=g_raise if raise_limit is None else raise_limit, pot_limit=pot_limit, pot_cap=pot_cap,
        blind_turns=blind_turns, see_cost=g_see if see_cost is None else see_cost,
        sideshow=g_side if sideshow is None else sideshow,
        agreed_showdown=g_agree if agreed_showdown is None else agreed_showdown,
        cover=g_cover if cover is None else cover, retain_blind=retain_blind)


def half_up(x: int) -> int:
    return -(-x // 2)


def discard_code(card: int) -> int:
    """docs/rules.md section 4: deuce 1 ... ace 13 (no jokers at these tables)."""
    return card // 4 + 1


def hand_key(table: RefTable, cards, discards=None) -> tuple:
    """A comparable key, higher better.  ``discards`` None: the best three of
    all the cards (a blind player); else the kept three and those discards."""
    def three(kept) -> tuple:
        return natural(tuple(kept), table.preset, table.ace_two_three, table.top_prial)[1]

    def tie_break(dropped) -> tuple:
        codes = sorted((discard_code(c) for c in dropped), reverse=True)
        return tuple(codes) + (0,) * (2 - len(codes))

    if discards is not None:
        kept = [c for c in cards if c not in discards]
        return (three(kept), tie_break(discards))
    best = None
    for kept in itertools.combinations(cards, 3):
        key = (three(kept), tie_break([c for c in cards if c not in kept]))
        if best is None or key > best:
            best = key
    return best


class RefDeal:
    """One deal, from the antes to the pot."""

    def __init__(self, table: RefTable, players, hands, dealer: int = 0, stacks=None,
                 short_may_only_fold: bool = True) -> None:
        """``short_may_only_fold``: docs/rules.md, "with cover=False a player
        who cannot pay their least stake may only fold" (no look, no agreed
        showdown); False lets them look and agree as anyone may."""
        n = len(players)
        self.short_may_only_fold = short_may_only_fold
        assert 2 <= n and 0 <= dealer < n and len(hands) == n
        self.table = table
        self.players = list(players)
        self.dealer = dealer
        self.hands = [None if h is None else tuple(h) for h in hands]
        self.stacks = None if stacks is None else list(stacks)
        self.status = ["blind"] * n
        self.put_in = [0] * n
        self.blind_stakes = [0] * n
        self.discarded = [None] * n      # the discards an open player chose
        self.must_discard = None         # the seat that looked and owes discards
        self.pots = [[0, None]]          # [amount, coverer seat or None], oldest first
        self.stake = table.min_stake
        self.staked = set()              # seats that have staked in this deal
        self.any_stake = False
        self.agreed = set()
        self.sideshow_asked = None       # (asker, asked)
        self.shown = [set() for _ in range(n)]   # seats each hand is shown to
        self.shown_to_all = [False] * n
        self.history = []                # (kind, player, amount, discards)
        self.over = False
        self.ending = None
        self.pot_winners = None          # per pot, oldest first: list of seats
        self.payouts = None              # per seat
        self.to_act = None
        self._legal = None               # legal_actions, once asked

        for seat in range(n):
            if self.stacks is not None and self.stacks[seat] < table.ante:
                self.status[seat] = "out"
        dealt = [s for s in range(n) if self.status[s] != "out"]
        assert len(dealt) >= 2, "at least two players must be dealt in"
        for seat in dealt:
            self.pay(seat, table.ante)
        self.to_act = self.next_in(dealer)

    # ---- small helpers ---------------------------------------------------

    def copy(self) -> RefDeal:
        """A copy whose mutable parts are its own (the table, players and
        hands are never changed, so they are shared)."""
        d = copy.copy(self)
        for name in ("stacks", "status", "put_in", "blind_stakes", "discarded", "history", "pot_winners",
                     "payouts", "shown_to_all"):
            value = getattr(self, name)
            setattr(d, name, None if value is None else list(value))
        d.pots = [list(p) for p in self.pots]
        d.staked, d.agreed = set(self.staked), set(self.agreed)
        d.shown = [set(v) for v in self.shown]
        d._legal = None
        return d

    @property
    def n(self) -> int:
        return len(self.players)

    def seat_of(self, player: str) -> int:
        return self.players.index(player)

    def players_in(self) -> list[int]:
        return [s for s in range(self.n) if self.status[s] in IN]

    def next_in(self, seat: int) -> int:
        """The first player in clockwise after ``seat``."""
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if self.status[s] in IN:
                return s
        raise AssertionError("nobody in")

    def pay(self, seat: int, chips: int) -> None:
        if self.stacks is not None:
            assert self.stacks[seat] >= chips
            self.stacks[seat] -= chips
        self.put_in[seat] += chips
        self.pots[-1][0] += chips

    def total_in_pots(self) -> int:
        return sum(p[0] for p in self.pots)

    def blind(self, seat: int) -> bool:
        return self.status[seat] == "blind"

    def least(self, seat: int) -> int:
        return half_up(self.stake) if self.blind(seat) else self.stake

    def limit_most(self, seat: int):
        """The most stake the limits allow (None: unbounded), never below
        the least; stacks not counted."""
        t, s, blind = self.table, self.stake, self.blind(seat)
        bounds = []
        if t.max_stake is not None:
            bounds.append(half_up(t.max_stake) if blind else t.max_stake)
        if t.raise_limit == "double":
            bounds.append(s if blind else 2 * s)
        elif t.raise_limit is not None:
            bounds.append((s + t.raise_limit) // 2 if blind else s + t.raise_limit)
        if t.pot_limit:
            bounds.append(self.pots[-1][0])
        if not bounds:
            return None
        return max(self.least(seat), min(bounds))

    def stake_range(self, seat: int):
        """(least, most) of a stake, or None when the stack cannot pay the least."""
        least, most = self.least(seat), self.limit_most(seat)
        if self.stacks is not None:
            if self.stacks[seat] < least:
                return None
            most = self.stacks[seat] if most is None else min(most, self.stacks[seat])
        return least, most

    def see_price(self, seat: int) -> int:
        return self.table.see_cost * self.least(seat)

    def blind_capped(self, seat: int) -> bool:
        t = self.table
        return self.blind(seat) and t.blind_turns is not None and self.blind_stakes[seat] >= t.blind_turns

    def sideshow_target(self, seat: int):
        """The nearest player in counter-clockwise who has staked, if open."""
        for step in range(1, self.n):
            s = (seat - step) % self.n
            if self.status[s] in IN and s in self.staked:
                return s if self.status[s] == "open" else None
        return None

    def key(self, seat: int) -> tuple:
        hand = self.hands[seat]
        if self.table.cards == 3:
            return hand_key(self.table, hand, ())
        return hand_key(self.table, hand, self.discarded[seat])

    # ---- what may be done ------------------------------------------------

    def legal_actions(self) -> list[tuple]:
        """(kind, least, most, amount) for every kind the player to act may take."""
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    def _legal_actions(self) -> list[tuple]:
        if self.over:
            return []
        seat = self.to_act
        if self.sideshow_asked is not None:
            return [("accept", None, None, None), ("decline", None, None, None)]
        if self.must_discard is not None:
            return [("discard", None, None, None)] + [("fold", None, None, None)] * self.may_fold_first(seat)
        out = [kind for kind in KINDS
               if self.refusal(kind, None, self.probe_amount(kind), self.probe_discards(kind)) is None]
        legal = []
        for kind in out:
            if kind in ("stake", "sideshow"):
                least, most = self.stake_range(seat)
                legal.append((kind, least, most, None))
            elif kind == "see":
                legal.append((kind, None, None, self.see_price(seat)))
            elif kind == "cover":
                legal.append((kind, None, None, self.stacks[seat]))
            else:
                legal.append((kind, None, None, None))
        return legal

    def probe_amount(self, kind: str):
        if kind in ("stake", "sideshow"):
            return self.least(self.to_act)
        return None

    def probe_discards(self, kind: str):
        if kind == "discard" and self.hands[self.to_act] is not None:
            return tuple(self.hands[self.to_act][:self.table.discards])
        return ()

    def refusal(self, kind: str, player=None, amount=None, discards=()):
        """The code of the first rule the action breaks, or None if allowed."""
        if self.over:
            return "deal_over"
        if player is not None and player not in self.players:
            return "unknown_player"
        seat = self.to_act if player is None else self.seat_of(player)
        if seat != self.to_act:
            return "not_your_turn"
        if kind not in KINDS:
            return "unknown_action"
        if self.sideshow_asked is not None:
            if kind not in ("accept", "decline"):
                return "answer_sideshow"
        elif kind in ("accept", "decline"):
            return "no_sideshow"
        if self.must_discard is not None and kind != "discard" and not (kind == "fold" and self.may_fold_first(seat)):
            return "must_discard"
        if kind == "discard" and self.must_discard is None:
            return "no_discard"
        if kind in TAKES_NO_AMOUNT and amount is not None:
            return "bad_amount"
        if kind in ("stake", "sideshow") and amount is None:
            return "bad_amount"
        if kind not in ("look", "discard", "fold", "accept", "decline") and self.short_of_face_up(seat):
            return "must_beat_face_up"
        # Where an action breaks several rules the docs do not rank them; the
        # order here is the engine's: past blind_turns before the action's own
        # rules, and a stake the stack cannot pay before one above the limits.
        if kind in ("stake", "see", "cover", "agree_showdown", "sideshow") and self.blind_capped(seat):
            return "blind_turns_over"
        t = self.table
        if kind in ("look", "agree_showdown") and self.short_may_only_fold and self.stacks is not None \
                and not t.cover and self.stacks[seat] < self.least(seat):
            # the docs give no code of its own: the stack cannot pay to stay in
            return "cannot_afford"
        n_in = len(self.players_in()) if kind in ("sideshow", "see", "agree_showdown") else 0
        if kind == "look":
            return "already_open" if not self.blind(seat) else None
        if kind == "discard":
            if len(discards) != t.discards:
                return "discard_count"
            hand = self.hands[seat]
            if hand is not None and (len(set(discards)) != len(discards) or any(c not in hand for c in discards)):
                return "discard_not_held"
            return None
        if kind == "sideshow":
            if not t.sideshow:
                return "sideshow_not_allowed"
            if self.blind(seat):
                return "sideshow_blind"
            if n_in < 3:
                return "sideshow_needs_three"
            if self.sideshow_target(seat) is None:
                return "sideshow_no_one"
        if kind in ("stake", "sideshow"):
            if amount < self.least(seat):
                return "stake_below_least"
            if self.stacks is not None and amount > self.stacks[seat]:
                return "cannot_afford"
            most = self.limit_most(seat)
            if most is not None and amount > most:
                return "stake_above_most"
            return None
        if kind == "see":
            if n_in != 2:
                return "see_needs_two"
            if not self.any_stake:
                return "see_before_stake"
            other = [s for s in self.players_in() if s != seat][0]
            if not self.blind(seat) and self.blind(other):
                return "see_blind_man"
            if self.two_hands(seat) or self.two_hands(other):
                return "see_two_hands"
            price = self.see_price(seat)
            if amount is not None and amount != price:
                return "see_price"
            if self.stacks is not None and self.stacks[seat] < price:
                return "cannot_afford"
            return None
        if kind == "cover":
            if not t.cover or self.stacks is None:
                return "cover_not_allowed"
            if self.stacks[seat] >= self.least(seat):
                return "cover_can_pay"
            return None
        if kind == "agree_showdown":
            if not t.agreed_showdown:
                return "agree_not_allowed"
            if n_in < 3:
                return "agree_needs_three"
            return None
        return None  # fold, accept, decline

    # ---- retained hands: none in a single deal (RetainedDeal has them) ----

    def may_fold_first(self, seat: int) -> bool:
        """Whether a player who owes discards may fold instead."""
        return False

    def short_of_face_up(self, seat: int) -> bool:
        """Whether the player must beat a hand dealt face up and does not."""
        return False

    def two_hands(self, seat: int) -> bool:
        return False

    # ---- doing it --------------------------------------------------------

    def act(self, kind: str, amount=None, discards=(), player=None) -> RefDeal:
        code = self.refusal(kind, player, amount, tuple(discards))
        if code is not None:
            raise Refused(code)
        d = self.copy()
        d._apply(kind, amount, tuple(discards))
        return d

    def _apply(self, kind: str, amount, discards) -> None:
        seat = self.to_act
        name = self.players[seat]
        if kind == "look":
            self.status[seat] = "open"
            if self.table.discards:
                self.must_discard = seat
            self.history.append(("look", name, None, ()))
        elif kind == "discard":
            self.discarded[seat] = tuple(discards)
            self.must_discard = None
            self.history.append(("discard", name, None, tuple(discards)))
        elif kind in ("stake", "sideshow"):
            self.history.append((kind, name, amount, ()))
            self._stake(seat, amount)
            if self._pot_capped():
                return
            if kind == "sideshow":
                self.sideshow_asked = (seat, self.sideshow_target(seat))
                self.to_act = self.sideshow_asked[1]
            else:
                self.to_act = self.next_in(seat)
        elif kind in ("accept", "decline"):
            asker, asked = self.sideshow_asked
            self.history.append((kind, name, None, ()))
            self.sideshow_asked = None
            if kind == "accept":
                self.shown[asker].add(asked)
                self.shown[asked].add(asker)
                loser = asker if self.key(asker) <= self.key(asked) else asked
                self.status[loser] = "folded"
            self.to_act = self.next_in(asker)
        elif kind == "fold":
            self.history.append(("fold", name, None, ()))
            self.status[seat] = "folded"
            self._after_leaving(seat)
        elif kind == "cover":
            chips = self.stacks[seat]
            self.history.append(("cover", name, chips, ()))
            self.pay(seat, chips)
            self.pots[-1][1] = seat
            self.pots.append([0, None])
            self.status[seat] = "covered"
            if len(self.players_in()) == 1:
                self._settle("cover", self.players_in())
                return
            if self._pot_capped():
                return
            self._after_leaving(seat)
        elif kind == "agree_showdown":
            self.history.append(("agree_showdown", name, None, ()))
            self.agreed.add(seat)
            if set(self.players_in()) <= self.agreed:
                self._showdown("showdown")
            else:
                self.to_act = self.next_in(seat)
        elif kind == "see":
            price = self.see_price(seat)
            self.history.append(("see", name, price, ()))
            self.pay(seat, price)
            seen = [s for s in self.players_in() if s != seat][0]
            self.shown_to_all[seen] = True
            if self.key(seat) > self.key(seen):
                self.shown_to_all[seat] = True
                winner = seat
            else:
                winner = seen
            self._settle("see", [winner])

    def _stake(self, seat: int, amount: int) -> None:
        least = self.least(seat)
        if self.blind(seat):
            self.blind_stakes[seat] += 1
            if amount != least:
                self.stake = 2 * amount
        else:
            self.stake = amount
        self.pay(seat, amount)
        self.staked.add(seat)
        self.any_stake = True
        self.agreed.clear()

    def _pot_capped(self) -> bool:
        cap = self.table.pot_cap
        if cap is not None and self.total_in_pots() >= cap:
            self._showdown("pot_cap")
            return True
        return False

    def _after_leaving(self, seat: int) -> None:
        """After a fold or a cover with others still in."""
        left = self.players_in()
        if len(left) == 1:
            self._settle("folded_out", left)
        elif self.agreed and set(left) <= self.agreed:
            self._showdown("showdown")
        else:
            self.to_act = self.next_in(seat)

    def _showdown(self, ending: str) -> None:
        left = self.players_in()
        for s in left:
            self.shown_to_all[s] = True
        best = max(self.key(s) for s in left)
        self._settle(ending, [s for s in left if self.key(s) == best])

    def _settle(self, ending: str, winners: list[int]) -> None:
        """Pots newest first: the newest to ``winners``; each older one to its
        coverer if strictly better than the best of the pot after's winners."""
        self.over, self.ending, self.to_act = True, ending, None
        self.sideshow_asked = None
        self.payouts = [0] * self.n
        per_pot = [None] * len(self.pots)
        for k in range(len(self.pots) - 1, -1, -1):
            amount, coverer = self.pots[k]
            if coverer is not None:
                for s in winners + [coverer]:
                    self.shown_to_all[s] = True
                best = max(self.key(s) for s in winners)
                if self.key(coverer) > best:
                    winners = [coverer]
            per_pot[k] = list(winners)
            self._split(amount, winners)
        self.pot_winners = per_pot

    def _split(self, amount: int, winners: list[int]) -> None:
        share, odd = divmod(amount, len(winners))
        in_turn = sorted(winners, key=lambda s: (s - self.dealer - 1) % self.n)
        for i, s in enumerate(in_turn):
            self.payouts[s] += share + (1 if i < odd else 0)

    # ---- what each player may see ------------------------------------------

    def visible(self, viewer) -> dict[str, frozenset]:
        """Every hand ``viewer`` (a player id, or None for a spectator) may
        see, as sets of cards.  A player's own hand after looking: every card
        they hold.  Another's hand: the cards played (an open player's
        discards stay hidden)."""
        v = None if viewer is None else self.seat_of(viewer)
        out = {}
        for s in range(self.n):
            if self.hands[s] is None:
                continue
            if s == v and self._looked(s):
                out[self.players[s]] = frozenset(self.hands[s])
            elif self.shown_to_all[s] or (v is not None and v in self.shown[s]):
                dropped = self.discarded[s] or ()
                out[self.players[s]] = frozenset(c for c in self.hands[s] if c not in dropped)
        return out

    def _looked(self, seat: int) -> bool:
        return any(k == "look" and p == self.players[seat] for k, p, _, _ in self.history)


# ---- dealing from a seed (docs/rules.md "Dealing from a seed", version 1) ----

MASK64 = 2**64 - 1


def splitmix64(seed: int):
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def seed_pack(seed: int, cards: int = 52) -> list[int]:
    """The pack, top (place 0) first: for each place i from the top down to
    the second last, swap with place j drawn uniformly from i to the last:
    of the next value's high 32 bits times the places left, j = i + the high
    32 bits of the product, drawing again while its low 32 bits fall below
    2**32 mod the places left."""
    stream = splitmix64(seed)
    pack = list(range(cards))
    for i in range(cards - 1):
        left = cards - i
        while True:
            product = (next(stream) >> 32) * left
            if product & 0xFFFFFFFF >= 2**32 % left:
                break
        j = i + (product >> 32)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def deal_hands(pack: list[int], dealt_in: list[bool], dealer: int, width: int) -> list:
    """One card at a time from the top, clockwise from the dealer's left
    among the players dealt in; None for a player sitting out."""
    n = len(dealt_in)
    order = [(dealer + 1 + k) % n for k in range(n) if dealt_in[(dealer + 1 + k) % n]]
    hands = [[] if dealt_in[s] else None for s in range(n)]
    top = 0
    for _ in range(width):
        for s in order:
            hands[s].append(pack[top])
            top += 1
    return hands
