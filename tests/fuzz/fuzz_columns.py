"""Fuzz the text-column parser of ``prial score`` (C++, straight from Arrow
string buffers): arbitrary bytes -- invalid UTF-8 included -- as rows of a
string or large_string column, sliced or not, with nulls, for packs of 52
to 55 cards.

The oracle is prial.parse_cards on the same text (invalid UTF-8 decoded
with surrogateescape, which parse_cards rejects): a row parses exactly when
parse_cards accepts it with at most five cards, all in the pack, none
repeated, and then to the same cards; a rejected row has a reason.
"""

from __future__ import annotations

import pyarrow as pa
from _harness import Input, instrumented_imports, run

with instrumented_imports():
    import prial
    from prial import _core
    from prial.logs.chunk import parse_text_cards
    from prial.logs.columns import MAX_WIDTH


def expected(raw: bytes | None, pack: int) -> list[int] | None:
    """The cards of a row that must parse, or None for one that must not."""
    if raw is None:
        return None
    try:
        cards = prial.parse_cards(raw.decode("utf-8", "surrogateescape"))
    except prial.InvalidHandError:
        return None
    if len(cards) > MAX_WIDTH or len(set(cards)) != len(cards) or any(c >= pack for c in cards):
        return None
    return cards


def one_input(data: bytes) -> None:
    inp = Input(data)
    pack = inp.int_in(52, 55)
    rows: list[bytes | None] = []
    for _ in range(inp.int_in(0, 12)):
        kind = inp.int_in(0, 9)
        if kind == 0:
            rows.append(None)
        elif kind == 1:
            rows.append(inp.take(inp.int_in(0, 12)))  # raw bytes, any UTF-8 or none
        else:
            rows.append(inp.text(20).encode("utf-8", "surrogatepass"))  # surrogates: invalid UTF-8
    column = pa.array(rows, pa.large_binary() if inp.flag() else pa.binary())
    column = column.view(pa.large_string() if pa.types.is_large_binary(column.type) else pa.string())
    first = inp.int_in(0, len(rows))
    column = column.slice(first)
    rows = rows[first:]

    cards, counts, status, where = parse_text_cards(column, pack, threads=inp.pick((None, 1, 2)))
    assert cards.shape == (len(rows), MAX_WIDTH)
    for r, raw in enumerate(rows):
        want = expected(raw, pack)
        if want is None:
            assert status[r] != 0, (raw, pack, cards[r], status[r])
            try:
                text = raw.decode("utf-8") if raw is not None else None
            except UnicodeDecodeError:
                text = None  # the reason is worded from the bytes: no str to ask about
            if text is not None:
                assert _core.text_hand_problem(text, MAX_WIDTH, pack), (raw, pack)
        else:
            assert status[r] == 0 and where[r] == 0, (raw, pack, status[r], where[r])
            assert counts[r] == len(want) and cards[r, : len(want)].tolist() == want, (raw, cards[r])
            assert (cards[r, len(want):] == 255).all()


if __name__ == "__main__":
    run(one_input)
