"""Deal: one deal at a betting table, immutable (docs/rules.md, "10. The
betting").  A thin handle on the native state: acting copies that state
and shares the history; the legal actions are made once per deal."""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .._core import PACK_VERSION, TableDeal, table_register_types
from ..cards import CardsLike, cards_of
from ..errors import IllegalActionError, InvalidHandError
from .between import next_deal
from .carried import CARRIED_KEYS, Carried
from .inputs import _int, _players
from .records import Action, DealResult, Event, Pot, PotResult, Seat, View
from .rules import DRAW_GAME, TableRules

table_register_types(Action, IllegalActionError)

FORMAT = "prial.deal"
FORMAT_VERSION = 1
_SEED_LIMIT = 2**64

_ENDINGS = {
    "folded_out": "the others folded",
    "see": "a see",
    "showdown": "a showdown every player in agreed to",
    "pot_cap": "a showdown at the pot cap",
    "unknown": "a sideshow between unknown hands",
}


class Deal:
    """One deal, from the antes to the pot.  Make one with :meth:`start`;
    :meth:`act` returns the next deal and leaves this one as it is."""

    __slots__ = ("table", "players", "dealer", "_native", "_seed", "_cards", "_stacks", "_seat_of", "_legal", "_setup",
                 "_stub")

    table: TableRules
    players: tuple[str, ...]
    dealer: int

    def __init__(self) -> None:
        raise TypeError("make a deal with prial.Deal.start(...) or prial.Deal.from_json(...)")

    @classmethod
    def start(cls, table: TableRules, players: Sequence[str], cards: Sequence[CardsLike | None] | None = None,
              seed: int | None = None, dealer: int = 0, stacks: Sequence[int] | None = None, *,
              carried: Mapping[str, Any] | None = None, stub: CardsLike | None = None) -> Deal:
        """The deal after the antes.  ``cards``: each player's hand (text or
        indices; None for a hand not known), or None to deal from ``seed``
        (a random seed when that is None too).  ``stacks``: each player's
        chips, or None to play without stacks.  ``carried``: what the deal
        carries from the one before, as :meth:`to_dict` writes it (``pot``,
        ``retained``, ``sitting_out``, ``pack``, ``pack_seed``), for a
        backend that keeps deals as data between calls.  ``stub`` (draw
        Brag, with ``cards``): the cards the draw deals from, top first;
        without it, cards drawn are unknown (a seeded deal draws from the
        rest of its pack)."""
        if not isinstance(table, TableRules):
            raise InvalidHandError(f"table must be a prial.TableRules; got {table!r}", field="table")
        names = _players(players)
        dealer = _int("dealer", dealer, 0, max(len(names), 1))
        hands: list[list[int] | None] | None = None
        if cards is not None:
            if seed is not None:
                raise InvalidHandError("give cards or a seed, not both", field="seed")
            if isinstance(cards, str) or not isinstance(cards, Sequence):
                raise InvalidHandError(f"cards must be a hand (or None) per player; got {cards!r}", field="cards")
            hands = [None if hand is None else cards_of(hand, f"cards of {name!r}")
                     for name, hand in zip(names, cards)]
            if len(cards) != len(names):
                raise InvalidHandError(f"cards gives {len(cards)} hands for {len(names)} players", field="cards")
        elif seed is None:
            seed = secrets.randbits(64)
        else:
            seed = _int("seed", seed, 0, _SEED_LIMIT)
        chips: list[int] | None = None
        if stacks is not None:
            if isinstance(stacks, str) or not isinstance(stacks, Sequence):
                raise InvalidHandError(f"stacks must be a stack per player; got {stacks!r}", field="stacks")
            chips = [_int("stacks", s, 0, 2**53 + 1) for s in stacks]
        setup = Carried() if carried is None else Carried.from_dict(carried, names)
        try:
            left = None if stub is None else tuple(cards_of(stub, "stub"))
        except InvalidHandError as exc:
            exc.field = exc.field or "stub"
            raise
        return cls._begin(table, names, hands, seed, dealer, chips, setup, left)

    @classmethod
    def _begin(cls, table: TableRules, names: tuple[str, ...], hands: list[list[int] | None] | None,
               seed: int | None, dealer: int, chips: list[int] | None, carried: Carried,
               stub: tuple[int, ...] | None = None) -> Deal:
        retained = -1 if carried.retained is None else names.index(carried.retained)
        sitting_out = [names.index(name) for name in carried.sitting_out]
        native = TableDeal.start(table._native, list(names), hands, seed or 0, dealer, chips, carried.pot,
                                 sitting_out, retained, carried.retained_cards,
                                 None if stub is None else list(stub))
        deal = object.__new__(cls)
        deal.table, deal.players, deal.dealer = table, names, dealer
        deal._native, deal._seed, deal._cards, deal._stacks = native, seed, hands, chips
        deal._setup, deal._stub = carried, stub
        deal._seat_of = {name: i for i, name in enumerate(names)}
        deal._legal = None
        return deal

    def _next(self, native: TableDeal) -> Deal:
        deal = object.__new__(Deal)
        deal.table, deal.players, deal.dealer = self.table, self.players, self.dealer
        deal._native, deal._seed, deal._cards, deal._stacks = native, self._seed, self._cards, self._stacks
        deal._seat_of, deal._setup, deal._stub = self._seat_of, self._setup, self._stub
        deal._legal = None
        return deal

    # ---- the state ------------------------------------------------------

    @property
    def to_act(self) -> str | None:
        """The player to act; None once the deal is over."""
        seat = self._native.to_act
        return None if seat < 0 else self.players[seat]

    @property
    def over(self) -> bool:
        return self._native.over

    @property
    def stake(self) -> int:
        """The current stake S, in open terms; at draw Brag, the bet to
        match in the current round."""
        return self._native.stake

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The pots, oldest first: every covered pot, then the live one."""
        return tuple(Pot(amount, None if c < 0 else self.players[c]) for amount, c in self._native.pots())

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(name, *row) for name, row in zip(self.players, self._native.seats()))

    @property
    def stacks(self) -> tuple[int, ...] | None:
        """Each player's chips behind now (None without stacks)."""
        if self._stacks is None:
            return None
        return tuple(row[1] for row in self._native.seats())

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        """Every known hand by player, all the cards dealt: the whole deal's
        knowledge, for whoever runs the table (a player's is ``view``)."""
        hands = {}
        for i, name in enumerate(self.players):
            hand = self._native.cards(i)
            if hand is not None:
                hands[name] = tuple(hand)
        return hands

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take (none once over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._native.legal()
        return legal

    def act(self, action: Action | str, amount: int | None = None, discards: Sequence[CardsLike] | None = None,
            *, player: str | None = None) -> Deal:
        """The deal after ``action`` (an Action, or its kind with ``amount``
        and ``discards``).  Raises IllegalActionError, with the rule's
        ``code``, for anything the rules do not allow now."""
        if isinstance(action, tuple):
            kind, player = action[0], action[1] if player is None else player
            amount, cards = action[2], action[3]
        else:
            kind, cards = action, (discards or ())
        if not isinstance(kind, str):
            raise InvalidHandError(f"an action's kind must be a string; got {kind!r}", field="kind")
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise InvalidHandError(f"an action's amount must be a whole number of chips; got {amount!r}",
                                   field="amount")
        if player is None:
            seat = self._native.to_act
        else:
            seat = self._seat_of.get(player, -1)
            if seat < 0:
                raise IllegalActionError(f"{player!r} cannot {kind}: the player is not at the table",
                                         "unknown_player")
        if isinstance(cards, str):
            cards = cards_of(cards, "discards")
        elif cards:
            cards = [cards_of(c, "discards")[0] if isinstance(c, str) else c for c in cards]
        if seat < 0:  # over: nobody to act
            raise IllegalActionError(f"nobody can {kind}: the deal has ended", "deal_over")
        return self._next(self._native.act(seat, kind, amount, list(cards)))

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions so far, looks and discards included."""
        return tuple(self._native.history())

    @property
    def actions(self) -> int:
        """How many actions have been applied."""
        return self._native.actions

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order (see Event)."""
        return tuple(self._events())

    def _events(self) -> list[Event]:
        names, everyone = self.players, (1 << len(self.players)) - 1
        out = []
        for kind, seat, amount, pot, to in self._native.events():
            player = names[seat] if seat >= 0 else None
            if kind == "show":
                # amount 1: the hand dealt face up, whichever hand the seat plays now
                hand = self._native.face_up_cards(seat) if amount == 1 else self._native.shown_cards(seat)
                cards = tuple(hand or ())
                shown = None if to == everyone else tuple(n for i, n in enumerate(names) if to >> i & 1)
                out.append(Event(kind, player, 0, 0, cards, shown))
            elif kind == "sideshow":
                out.append(Event(kind, player, 0, 0, None, tuple(n for i, n in enumerate(names) if to >> i & 1)))
            else:
                out.append(Event(kind, player, amount, pot))
        return out

    @property
    def result(self) -> DealResult | None:
        """Who won what and why; None until the deal is over."""
        raw = self._native.result()
        if raw is None:
            return None
        known, ending, payouts, pot_winners, stays, retainer = raw
        names = self.players
        pots = self._native.pots()
        if stays:
            nets = {name: -row[2] for name, row in zip(names, self._native.seats())}
            return DealResult(True, (), dict.fromkeys(names, 0), nets,
                              f"everyone folded to {names[retainer]!r}, who is blind: the pot of {pots[0][0]} stays "
                              f"for the next deal, and {names[retainer]!r} may keep the hand", "pot_stays",
                              (PotResult(pots[0][0], (), None),))
        if not known:
            return DealResult(False, None, None, None, f"the deal ended at {_ENDINGS[ending]} whose hands are "
                              "unknown, so its winners are unknown", ending, ())
        results = tuple(PotResult(amount, tuple(n for i, n in enumerate(names) if pot_winners[k] >> i & 1),
                                  None if c < 0 else names[c]) for k, (amount, c) in enumerate(pots))
        paid = dict(zip(names, payouts))
        nets = {name: paid[name] - row[2] for name, row in zip(names, self._native.seats())}
        winners = tuple(n for n in names if paid[n] > 0) or results[-1].winners
        return DealResult(True, winners, paid, nets, self._reason(ending, results), ending, results)

    def _reason(self, ending: str, pots: tuple[PotResult, ...]) -> str:
        live = pots[-1]
        # Draw Brag's betting ends at a showdown nobody has to agree to.
        at = "the showdown after the second round" if self.table.game == DRAW_GAME and ending == "showdown" \
            else _ENDINGS[ending]
        text = f"{' and '.join(repr(w) for w in live.winners)} {'win' if len(live.winners) > 1 else 'wins'} " \
               f"the pot of {live.amount} at {at}"
        if ending == "see":
            seer = self.players[self._native.seer]
            text += f" ({seer!r} saw and {'won' if live.winners == (seer,) else 'lost'})"
        for pot in reversed(pots[:-1]):
            text += f"; the pot of {pot.amount} covered by {pot.coverer!r} goes to " \
                    f"{' and '.join(repr(w) for w in pot.winners)}"
        return text

    def next(self, *, retain: bool = False, cards: Sequence[CardsLike | None] | None = None,
             seed: int | None = None, join: Mapping[str, int | None] | Sequence[str] = (),
             leave: Collection[str] = (), sit_out: Collection[str] = (),
             stacks: Mapping[str, int] | None = None) -> Deal:
        """The next deal: the dealer moved to the next seat, stacks carried
        (``stacks`` gives players new ones; a player left with no chips
        drops out), a pot that stayed carried; ``retain=True`` lets the
        blind player everyone folded to keep the hand.  ``join`` seats new
        players (with their stacks), ``leave`` and ``sit_out`` name players
        leaving the table or sitting this deal out.  Cards: ``cards``, else
        dealt from ``seed`` (by default the seed after this deal's) or, under
        ``shuffle="after_prial"``, from the pack as this deal left it."""
        return next_deal(self, retain=retain, cards=cards, seed=seed, join=join, leave=leave, sit_out=sit_out,
                         stacks=stacks)

    # ---- what a player may see -------------------------------------------

    def view(self, player: str | None) -> View:
        """The deal as ``player`` may know it (None: a spectator): every hand
        shown to them, their own once looked at, a hand dealt face up while
        it is held, nothing else; no seed."""
        seat = -1
        if player is not None:
            seat = self._seat_of.get(player, -1)
            if seat < 0:
                raise InvalidHandError(f"{player!r} is not at the table", field="player")
        names, everyone = self.players, (1 << len(self.players)) - 1
        cards: dict[str, tuple[int, ...]] = {}
        for i, name in enumerate(names):
            seen_by = self._native.seen_by(i)
            if (seen_by == everyone) if seat < 0 else (seen_by >> seat & 1):
                hand = self._native.cards(i) if i == seat else self._native.shown_cards(i)
            elif self._native.holds_face_up(i):
                hand = self._native.face_up_cards(i)
            else:
                continue
            if hand is not None:
                cards[name] = tuple(hand)
        # Which cards another player discarded stays hidden; how many they
        # drew is public (a draw's amount).
        history = tuple(a if a.kind not in ("discard", "draw") or a.player == player else a._replace(discards=())
                        for a in self._native.history())
        mine = player is not None and self.to_act == player
        return View(player, self.to_act, self.stake, self.pots, self.seats, history, cards,
                    self.legal_actions() if mine else (), self.result)

    # ---- as data ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The deal as plain data: the table, the setup and the actions; its
        seed too (this is the whole deal, not a player's view)."""
        data: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION, "table": self.table.to_dict(),
                                "players": list(self.players), "dealer": self.dealer, "stacks": self._stacks}
        if self._cards is not None:
            data["cards"] = self._cards
            if self._stub is not None:
                data["stub"] = list(self._stub)
        else:
            data["seed"] = self._seed
            data["pack_version"] = PACK_VERSION
        data.update(self._setup.to_dict())
        data["actions"] = [{"player": a.player, "kind": a.kind,
                            **({"amount": a.amount} if a.amount is not None and a.kind in ("stake", "sideshow")
                               else {}),
                            **({"discards": list(a.discards)} if a.discards else {})} for a in self.history]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """The deal :meth:`to_dict` wrote, its actions replayed (an illegal
        one raises IllegalActionError)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidHandError(f"not a deal: the format must be {FORMAT!r}", field="format")
        if data.get("version") != FORMAT_VERSION:
            raise InvalidHandError(f"deal format version {data.get('version')!r} is not supported "
                                   f"(this prial reads version {FORMAT_VERSION})", field="version")
        if "seed" in data and data.get("pack_version", PACK_VERSION) != PACK_VERSION:
            raise InvalidHandError(f"pack version {data['pack_version']!r} is not supported "
                                   f"(this prial deals version {PACK_VERSION})", field="pack_version")
        deal = cls.start(TableRules.from_dict(data.get("table")), data.get("players"), cards=data.get("cards"),
                         seed=data.get("seed"), dealer=data.get("dealer", 0), stacks=data.get("stacks"),
                         carried={key: data[key] for key in CARRIED_KEYS if key in data}, stub=data.get("stub"))
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise InvalidHandError("actions must be a list", field="actions")
        for i, a in enumerate(actions):
            if not isinstance(a, dict) or not isinstance(a.get("kind"), str):
                raise InvalidHandError(f"action {i} must be an object with a kind", row=i, field="actions")
            deal = deal.act(a["kind"], a.get("amount"), a.get("discards"), player=a.get("player"))
        return deal

    @classmethod
    def from_json(cls, text: str | bytes) -> Deal:
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise InvalidHandError(f"not a deal: not JSON ({exc})", field="format") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return (self.table, self.players, self.dealer, self._seed, self._cards, self._stacks, self._setup,
                self._stub, self.history) == (other.table, other.players, other.dealer, other._seed, other._cards,
                                              other._stacks, other._setup, other._stub, other.history)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self.over else f"{self.to_act!r} to act"
        return f"<Deal {self.table.game}, {len(self.players)} players, {self.actions} actions, {state}>"
