"""A batch of nested Parquet histories as the arrays the native replay
takes, read column by column, with what no Python object per action can
vouch for told apart.

``plain_deals`` keeps a deal on this path only where every check the
record reader makes (prial.table.read_record, and no card dealt twice)
is known to pass, by checks over whole columns: the rest (a bad record,
a deal dealt from a seed or carrying something from the deal before, a
form the columns do not decide) are read and replayed one by one, so
that their findings and reasons are the reader's own."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from .._core import TABLE_KINDS
from ..errors import InvalidHandError
from ..table import TableRules
from ..table.batch import NO_CARD

MOST_CHIPS = 2**53
MOST_NET = 2**62
MOST_CARDS = 5  # a hand or a discard written in canonical card text, at most
# ISO 8601 with its zone, as record times are written; the date itself is
# checked by reading it back.
_ISO = (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{3}|\.[0-9]{6})?"
        r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$")
# A name the findings can write as JSON text without escapes.
_ESCAPED = r'["\\\x00-\x1f]'


def _card_codes() -> npt.NDArray[np.int16]:
    """Card index of each two-byte card text ("As", "X1"), -1 for none."""
    codes = np.full(1 << 16, -1, dtype=np.int16)
    for r, rank in enumerate("23456789TJQKA"):
        for s, suit in enumerate("cdhs"):
            codes[ord(rank) << 8 | ord(suit)] = 4 * r + s
    codes[ord("X") << 8 | ord("1")] = 52
    codes[ord("X") << 8 | ord("2")] = 53
    return codes


_CARD = _card_codes()


@dataclass
class Lists:
    """A list column: each deal's ``lengths``, its ``values`` (flattened),
    ``owner`` (the deal of each value) and ``null`` (a deal whose list is null)."""

    lengths: npt.NDArray[np.int64]
    values: pa.Array
    owner: npt.NDArray[np.int64]
    null: npt.NDArray[np.bool_]
    _index: npt.NDArray[np.int64] | None = None

    @classmethod
    def of(cls, column: pa.Array) -> Lists:
        offsets = column.offsets.to_numpy().astype(np.int64)
        lengths = np.diff(offsets)
        null = _mask(column.is_null())
        lengths[null] = 0  # what a null list hides is not read
        keep = np.repeat(~null, np.diff(offsets))
        values = column.values.slice(int(offsets[0]), int(offsets[-1] - offsets[0]))
        if not keep.all():
            values = values.filter(pa.array(keep))
        return cls(lengths, values, np.repeat(np.arange(len(column)), lengths), null)

    def index(self) -> npt.NDArray[np.int64]:
        """Each value's place in its own deal's list."""
        if self._index is None:
            starts = np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)
            self._index = np.arange(len(self.owner)) - starts[self.owner]
        return self._index

    def any_per_deal(self, bad: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        return np.bincount(self.owner[bad], minlength=len(self.lengths)) > 0


def _mask(values: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.bool_]:
    return np.asarray(pc.fill_null(values, False).to_numpy(zero_copy_only=False), dtype=bool)


def _ints(values: pa.Array, fill: int) -> npt.NDArray[np.int64]:
    return np.asarray(pc.fill_null(values.cast(pa.int64()), fill).to_numpy(zero_copy_only=False), dtype=np.int64)


def _text_bytes(values: pa.Array) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """(start, length, data) of each text of a string array."""
    values = values.cast(pa.string())
    n = len(values)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32, count=n + 1, offset=values.offset * 4)
    data_buffer = values.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    return offsets[:-1].astype(np.int64), np.diff(offsets).astype(np.int64), data


_DIGITS = np.array([0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18])
_MARKS = {4: ord("-"), 7: ord("-"), 10: ord("T"), 13: ord(":"), 16: ord(":"), 19: ord("Z")}
_DAYS = np.array([0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])


def iso_times(values: pa.Array) -> npt.NDArray[np.bool_]:
    """Which texts are times with their zone that the record reader takes:
    the form records are written in (``2026-01-01T00:00:05Z``) read over
    the bytes, any other by a pattern and reading its clock back."""
    _, length, _ = _text_bytes(values)
    given = _mask(values.is_valid())
    ok = np.zeros(len(values), dtype=bool)
    written = np.flatnonzero((length == 20) & given)
    if len(written):
        # Texts of one length, side by side, are a matrix of bytes (copied
        # together first unless every text is one of them already).
        packed = values if len(written) == len(values) else values.filter(pa.array((length == 20) & given))
        packed = packed.cast(pa.string())
        start, _, data = _text_bytes(packed)
        text = data[int(start[0]):int(start[0]) + 20 * len(written)].reshape(-1, 20) - np.uint8(ord("0"))
        good = (text[:, _DIGITS] <= 9).all(axis=1)
        for at, mark in _MARKS.items():
            good &= text[:, at] == np.uint8((mark - ord("0")) % 256)
        def number(first: int, digits: int) -> npt.NDArray[np.int32]:
            value = np.zeros(len(text), dtype=np.int32)
            for i in range(first, first + digits):
                value = value * 10 + text[:, i]
            return value

        year, month, day = number(0, 4), number(5, 2), number(8, 2)
        leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
        most = _DAYS[np.clip(month, 0, 12)] - ((month == 2) & ~leap)
        good &= (year >= 1) & (month >= 1) & (month <= 12) & (day >= 1) & (day <= most)
        good &= (number(11, 2) <= 23) & (text[:, 14] <= 5) & (text[:, 17] <= 5)
        ok[written] = good
    other = np.flatnonzero((length != 20) & given)
    if len(other):
        ok[other] = _iso_by_pattern(values.take(pa.array(other)))
    return ok


def _iso_by_pattern(values: pa.Array) -> npt.NDArray[np.bool_]:
    shaped = _mask(pc.match_substring_regex(values, _ISO))
    if not shaped.any():
        return shaped
    clock = pc.utf8_slice_codeunits(values, 0, 19)
    parsed = pc.strptime(clock, format="%Y-%m-%dT%H:%M:%S", unit="s", error_is_null=True)
    back = pc.strftime(parsed, format="%Y-%m-%dT%H:%M:%S")
    return shaped & _mask(pc.equal(back, clock)) & ~_mask(pc.starts_with(values, "0000"))


def card_text(values: pa.Array) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Card texts in the canonical form ("As Kd 2c") as indices: (cards,
    NO_CARD past each text's count; count; whether the text is canonical)."""
    n = len(values)
    starts, lengths, data = _text_bytes(values)
    count = (lengths + 1) // 3
    ok = ((lengths + 1) % 3 == 0) & (count >= 1) & (count <= MOST_CARDS) & ~_mask(values.is_null())
    cards = np.full((n, MOST_CARDS), NO_CARD, dtype=np.uint8)
    for i in range(MOST_CARDS):
        has = np.flatnonzero(ok & (count > i))
        at = starts[has] + 3 * i
        card = _CARD[data[at].astype(np.int32) << 8 | data[at + 1]]
        spaced = np.ones(len(has), dtype=bool)
        more = count[has] > i + 1
        spaced[more] = data[at[more] + 2] == 32
        good = (card >= 0) & spaced
        ok[has[~good]] = False
        cards[has[good], i] = card[good]
    return cards, count, ok


@dataclass
class Names:
    """The players of each deal, and names looked up among them."""

    ids: pa.Array
    lists: Lists
    keys: npt.NDArray[np.int64]  # (deal, name code) of each player, sorted
    seat_of_key: npt.NDArray[np.int64]
    codes: pa.Array  # the dictionary names are coded by
    code: npt.NDArray[np.int64]  # each player's name's place in it (-1: none)

    @classmethod
    def of(cls, ids: pa.Array, lists: Lists) -> Names:
        encoded = pc.dictionary_encode(ids)
        dictionary = encoded.dictionary
        code = _ints(encoded.indices, -1)
        keys = lists.owner * (len(dictionary) + 1) + code
        order = np.argsort(keys, kind="stable")
        return cls(ids, lists, keys[order], lists.index()[order], dictionary, code)

    def duplicated(self) -> npt.NDArray[np.bool_]:
        """Deals naming a player twice."""
        twice = np.flatnonzero(self.keys[1:] == self.keys[:-1])
        out = np.zeros(len(self.lists.lengths), dtype=bool)
        out[self.keys[twice] // (len(self.codes) + 1)] = True
        return out

    def seats(self, names: pa.Array, owner: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The seat of each name in its deal (-1: not at the table)."""
        code = _ints(pc.index_in(names, value_set=self.codes), -1)
        keys = owner * (len(self.codes) + 1) + code
        at = np.minimum(np.searchsorted(self.keys, keys), max(len(self.keys) - 1, 0))
        if not len(self.keys):
            return np.full(len(keys), -1, dtype=np.int64)
        found = (self.keys[at] == keys) & (code >= 0)
        return np.where(found, self.seat_of_key[at], -1)


def rules_of(batch: pa.RecordBatch, tables: Mapping[str, TableRules] | None
             ) -> tuple[list[TableRules], npt.NDArray[np.int64]]:
    """The distinct rules of the batch, and each deal's among them (-1: the
    record reader's to judge)."""
    known: list[TableRules] = []
    which = np.full(batch.num_rows, -1, dtype=np.int64)
    inline, ref = batch.column("table"), batch.column("rules_ref")
    for column, make in ((inline, _inline_rules), (ref, lambda name: (tables or {}).get(name))):
        encoded = pc.dictionary_encode(column)
        code = _ints(encoded.indices, -1)
        place = np.full(len(encoded.dictionary) + 1, -1, dtype=np.int64)
        for k, text in enumerate(encoded.dictionary.to_pylist()):
            rules = make(text)
            if rules is not None:
                place[k] = len(known)
                known.append(rules)
        which = np.where(code >= 0, place[code], which)
    which[_mask(inline.is_valid()) & _mask(ref.is_valid())] = -1
    return known, which


def _inline_rules(text: str) -> TableRules | None:
    try:
        return TableRules.from_dict(json.loads(text))
    except (ValueError, TypeError, InvalidHandError):  # the record reader's to say
        return None


_KIND_CODES = pa.array(TABLE_KINDS)


@dataclass
class Deals:
    """The batch's deals as arrays: what plain_deals found of them."""

    plain: npt.NDArray[np.bool_]
    rules: list[TableRules]
    rules_of: npt.NDArray[np.int64]
    seats: npt.NDArray[np.int64]
    dealer: npt.NDArray[np.int64]
    players: Lists
    names: Names
    stacks: npt.NDArray[np.int64]  # each player's stack, by player
    stacks_given: npt.NDArray[np.bool_]  # by player
    cards: npt.NDArray[np.uint8]  # (deals, most seats, MOST_CARDS)
    actions: Lists
    actor: npt.NDArray[np.int64]
    kind: npt.NDArray[np.int64]
    amount: npt.NDArray[np.int64]
    discards: npt.NDArray[np.uint8]  # (actions, 2)
    rake: Lists
    rake_chips: npt.NDArray[np.int64]
    outcome: npt.NDArray[np.bool_]  # a deal with something recorded of its end
    winners: Lists
    winner_seat: npt.NDArray[np.int64]
    nets: Lists
    net_seat: npt.NDArray[np.int64]
    net_chips: npt.NDArray[np.int64]


def plain_deals(batch: pa.RecordBatch, tables: Mapping[str, TableRules] | None) -> Deals:
    n = batch.num_rows
    col = batch.column
    bad = np.zeros(n, dtype=bool)
    bad |= ~_mask(pc.greater(pc.utf8_length(col("deal_id")), 0))
    bad |= _empty(col("table_id"))
    started = col("started")
    bad |= _mask(started.is_valid()) & ~iso_times(started)
    bad |= _mask(col("seed").is_valid()) | _mask(col("carried").is_valid())
    rules, which = rules_of(batch, tables)
    bad |= which < 0

    players = Lists.of(col("players"))
    bad |= players.null | (players.lengths < 2)
    entries = players.values
    bad |= players.any_per_deal(_mask(entries.is_null()))
    ids, seat_col, stack_col = entries.field("id"), entries.field("seat"), entries.field("stack")
    names = Names.of(ids, players)
    # Checked once a name, over the distinct names.
    named = np.append(_mask(pc.greater(pc.utf8_length(names.codes), 0))
                      & ~_mask(pc.match_substring_regex(names.codes, _ESCAPED)), False)
    bad |= players.any_per_deal(~named[names.code])
    bad |= players.any_per_deal(_ints(seat_col, -1) != players.index())
    stacked = _mask(stack_col.is_valid())
    stack = _ints(stack_col, 0)
    with_stacks = np.bincount(players.owner[stacked], minlength=n)
    bad |= (with_stacks != 0) & (with_stacks != players.lengths)
    bad |= players.any_per_deal(stacked & ((stack < 0) | (stack > MOST_CHIPS)))
    bad |= names.duplicated()
    dealer = _ints(col("dealer"), 0)
    bad |= (dealer < 0) | (dealer >= np.maximum(players.lengths, 1))

    seats = players.lengths
    cards = np.full((n, max(int(seats.max(initial=0)), 1), MOST_CARDS), NO_CARD, dtype=np.uint8)
    hands = Lists.of(col("cards"))
    bad |= ~hands.null & (hands.lengths != seats)
    hand_cards, hand_count, hand_ok = card_text(hands.values)
    dealt = _mask(hands.values.is_valid())
    width = np.array([r.cards for r in rules] + [0], dtype=np.int64)[which]
    bad |= hands.any_per_deal(dealt & (~hand_ok | (hand_count != width[hands.owner])))
    fits = ~bad[hands.owner] & dealt & (hands.index() < cards.shape[1])
    cards[hands.owner[fits], hands.index()[fits]] = hand_cards[fits]
    bad |= _twice(cards)

    rake = Lists.of(col("rake"))
    rake_chips = _ints(rake.values, -1)
    bad |= rake.any_per_deal((rake_chips < 0) | (rake_chips > MOST_CHIPS))

    winners = Lists.of(col("winners"))
    winner_seat = names.seats(winners.values, winners.owner)
    bad |= winners.any_per_deal(winner_seat < 0)
    nets = Lists.of(col("nets"))
    net_entries = nets.values
    net_seat = names.seats(net_entries.field("player"), nets.owner)
    net_chips = _ints(net_entries.field("net"), MOST_NET + 1)
    bad |= nets.any_per_deal(_mask(net_entries.is_null()) | (net_seat < 0) | (np.abs(net_chips) > MOST_NET))
    twice = np.zeros(n, dtype=bool)
    if len(net_seat):
        most = int(seats.max(initial=0)) + 1
        pairs = np.sort(nets.owner * most + net_seat)  # a player's net given twice
        twice[pairs[1:][pairs[1:] == pairs[:-1]] // most] = True
    bad |= twice

    actions = Lists.of(col("actions"))
    steps = actions.values
    bad |= actions.any_per_deal(_mask(steps.is_null()))
    kind = _ints(pc.index_in(steps.field("kind"), value_set=_KIND_CODES), -1)
    actor = names.seats(steps.field("player"), actions.owner)
    amount_col = steps.field("amount")
    amount = _ints(amount_col, -1)
    bad |= actions.any_per_deal((kind < 0) | (actor < 0) | (_mask(amount_col.is_valid()) & ((amount < 0) | (amount > MOST_CHIPS))))
    times = steps.field("time")
    timed = _mask(times.is_valid())
    if timed.any():
        bad |= actions.any_per_deal(timed & ~iso_times(times))
    discard_text = steps.field("discards")
    discarding = _mask(pc.greater(pc.utf8_length(discard_text), 0))
    discards = np.full((len(kind), 2), NO_CARD, dtype=np.uint8)
    if discarding.any():
        picked, _, canonical = card_text(discard_text)
        bad |= actions.any_per_deal(discarding & ~canonical)
        discards[discarding] = picked[discarding, :2]
    return Deals(~bad, rules, which, seats, dealer, players, names, stack, stacked, cards,
                 actions, actor, kind, amount, discards, rake, rake_chips,
                 _mask(col("winners").is_valid()) | _mask(col("nets").is_valid()),
                 winners, winner_seat, nets, net_seat, net_chips)


def _empty(values: pa.Array) -> npt.NDArray[np.bool_]:
    """Which texts are given but empty (a column read as a dictionary looked at once a value)."""
    if pa.types.is_dictionary(values.type):
        return np.append(_mask(pc.equal(pc.utf8_length(values.dictionary), 0)), False)[_ints(values.indices, -1)]
    return _mask(pc.equal(pc.utf8_length(values), 0))


def _twice(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Deals holding a card twice, in one hand or across hands."""
    flat = np.sort(cards.reshape(len(cards), -1), axis=1)
    same = (flat[:, 1:] == flat[:, :-1]) & (flat[:, 1:] != NO_CARD)
    return same.any(axis=1)
