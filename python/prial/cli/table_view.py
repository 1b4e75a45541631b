"""What ``prial table`` prints and reads: a deal's states as text or JSON,
and actions as one-line text (``bob: stake 2``), the same words in a
replay's ``--actions``, in its printout and at the prompt of a deal played
by hand."""

from __future__ import annotations

from typing import Any, TextIO

from .._core import TABLE_KINDS
from ..cards import format_cards
from ..errors import InvalidHandError
from ..table import Action, Deal, TableRules
from ..table.rules import DRAW_GAME
from .common import Table

# Kinds that take an amount of chips when submitted (a see's is optional and
# must be its price); a stake or sideshow given without one is the least.
AMOUNT_KINDS = ("stake", "sideshow", "see", "call", "raise")
# Kinds followed by cards: a discard, and draw Brag's draw (alone: stand pat).
CARD_KINDS = ("discard", "draw")
_SYNTAX = {"stake": "stake N (stake alone: the least)", "sideshow": "sideshow N", "discard": "discard CARDS",
           "draw": "draw [CARDS]"}


def kinds_text() -> str:
    """Every kind of action, as typed."""
    return ", ".join(_SYNTAX.get(kind, kind) for kind in TABLE_KINDS)


def parse_action(text: str) -> tuple[str | None, str, int | None, str | None]:
    """``[PLAYER:] KIND [AMOUNT | CARDS...]`` as (player, kind, amount,
    discards); only the words are checked here, the rules by the deal."""
    player, colon, rest = text.partition(":")
    if not colon:
        player, rest = "", text
    player = player.strip()
    if colon and not player:
        raise InvalidHandError("no player before the ':'", field="actions")
    words = rest.split()
    if not words:
        raise InvalidHandError("no kind of action (look, stake 2, fold, see ...)", field="actions")
    kind, extra = words[0], words[1:]
    if kind in CARD_KINDS:
        return player or None, kind, None, " ".join(extra)
    if len(extra) > 1 or (extra and kind not in AMOUNT_KINDS):
        takes = "takes at most one amount" if kind in AMOUNT_KINDS else "takes no amount"
        raise InvalidHandError(f"{kind} {takes}", field="actions")
    amount = None
    if extra:
        try:
            amount = int(extra[0].replace("_", ""))
        except ValueError:
            raise InvalidHandError(f"the amount must be a whole number of chips, not {extra[0]!r}",
                                   field="actions") from None
    return player or None, kind, amount, None


def act_text(deal: Deal, text: str) -> Deal:
    """The deal after the action ``text`` (IllegalActionError if the rules
    refuse it; InvalidHandError if its words cannot be read)."""
    player, kind, amount, discards = parse_action(text)
    if amount is None and kind in ("stake", "sideshow") and (player is None or player == deal.to_act):
        least = [a.least for a in deal.legal_actions() if a.kind == kind]
        amount = least[0] if least else None  # not allowed now: the deal says why
    return deal.act(kind, amount, discards, player=player)


def action_text(action: Action) -> str:
    """An action done, as ``--actions`` takes it (a see's amount is its price)."""
    words = [f"{action.player}: {action.kind}"]
    if action.kind in AMOUNT_KINDS and action.amount is not None:
        words.append(str(action.amount))
    if action.discards:
        words.append(format_cards(list(action.discards)))
    return " ".join(words)


def legal_text(action: Action, discards: int) -> str:
    """A legal action with its least and most, or its price."""
    if action.kind in ("stake", "sideshow"):
        if action.most is None:
            return f"{action.kind} {action.least} or more"
        if action.most == action.least:
            return f"{action.kind} {action.least}"
        return f"{action.kind} {action.least} to {action.most}"
    if action.kind in ("see", "call", "raise") and action.amount is not None:
        return f"{action.kind} {action.amount}"
    if action.kind == "discard":
        return f"discard {discards} card{'s' if discards > 1 else ''}"
    if action.kind == "draw":
        return f"draw {action.least} to {action.most} cards" if action.most else "draw (stand pat)"
    return action.kind


def table_line(deal: Deal) -> str:
    """The table and the seats in one line."""
    t = deal.table
    words = [t.game, f"ante {t.ante}", f"dealer {deal.players[deal.dealer]}"]
    if t.rules.preset != TableRules(game=t.game).rules.preset:  # hands ranked other than the game's way
        words.insert(1, f"ranked as {t.rules.preset}")
    return f"{', '.join(words)}: {', '.join(deal.players)}"


def pots_text(deal: Deal) -> str:
    pots = deal.pots
    if len(pots) == 1:
        return f"pot {pots[0].amount}"
    return "pots " + ", ".join(f"{p.amount}" + (f" (covered by {p.coverer})" if p.coverer else "") for p in pots)


def print_state(deal: Deal, out: TextIO, cards: dict[str, tuple[int, ...]] | None = None) -> None:
    """To act, the stake, the pots, every seat and the legal actions; with
    ``cards``, a column of the hands known (a player's view)."""
    if deal.over:
        print(f"over, {pots_text(deal)}", file=out)
    else:
        # Draw Brag's stake is the round's bet to match.
        stake = "bet" if deal.table.game == DRAW_GAME else "stake"
        print(f"{deal.to_act} to act, {stake} {deal.stake}, {pots_text(deal)}", file=out)
    stacks = deal.stacks is not None
    headers = ["player", "status", *(["stack"] if stacks else []), "put in", *(["cards"] if cards is not None else [])]
    rows = []
    for seat in deal.seats:
        row: list[object] = [seat.player, seat.status, *([seat.stack] if stacks else []), seat.put_in]
        if cards is not None:
            row.append(format_cards(list(cards[seat.player])) if seat.player in cards else "")
        rows.append(row)
    Table(headers, out).write(rows)
    legal = deal.legal_actions()
    if legal:
        print("may: " + ", ".join(legal_text(a, deal.table.discards) for a in legal), file=out)


def print_result(deal: Deal, out: TextIO, cards: dict[str, tuple[int, ...]]) -> None:
    """The result: why, then each player's payout and net, with the hands
    ``cards`` holds."""
    result = deal.result
    if result is None:
        print("the deal is not over", file=out)
        return
    print(f"result: {result.reason}", file=out)
    if not result.known:
        return
    assert result.payouts is not None and result.nets is not None
    Table(["player", "cards", "payout", "net"], out).write(
        [[name, format_cards(list(cards[name])) if name in cards else "", result.payouts[name],
          result.nets[name]] for name in deal.players])


def action_dict(action: Action) -> dict[str, Any]:
    """An action done, in the shape of the deal format's actions."""
    data: dict[str, Any] = {"player": action.player, "kind": action.kind}
    if action.amount is not None and action.kind in AMOUNT_KINDS:
        data["amount"] = action.amount
    if action.discards:
        data["discards"] = list(action.discards)
    return data


def state_dict(deal: Deal, index: int) -> dict[str, Any]:
    """One state as plain data: after which action, to act, the stake, the
    pots, the seats and the legal actions."""
    history = deal.history
    return {
        "state": index,
        "after": action_dict(history[-1]) if history else None,
        "to_act": deal.to_act,
        "over": deal.over,
        "stake": deal.stake,
        "pots": [{"amount": p.amount, "coverer": p.coverer} for p in deal.pots],
        "seats": [{"player": s.player, "status": s.status, "stack": s.stack, "put_in": s.put_in,
                   "blind_stakes": s.blind_stakes} for s in deal.seats],
        "legal": [{"kind": a.kind, "amount": a.amount, "least": a.least, "most": a.most}
                  for a in deal.legal_actions()],
    }


def end_dict(deal: Deal) -> dict[str, Any]:
    """The last line of ``--json``: the result (None before the end), the
    hands shown to everyone, and the whole deal in the deal format."""
    result = deal.result
    shown = deal.view(None).cards
    return {"result": None if result is None else result.to_dict(),
            "shown": {name: list(cards) for name, cards in shown.items()}, "deal": deal.to_dict()}
