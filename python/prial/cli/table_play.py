"""A deal played by hand at ``prial table``: one person against threshold
bots, the same policy as the native self-play's threshold player."""

from __future__ import annotations

from typing import TextIO

from ..cards import format_cards
from ..errors import IllegalActionError, InvalidHandError
from ..evaluator import evaluator_for
from ..play import percentile
from ..table import Action, Deal
from .table_view import act_text, action_text, kinds_text, print_result, print_state, table_line

HELP = f"type an action: {kinds_text()}; 'help' repeats the state, 'quit' leaves"


def strength(deal: Deal, player: str) -> float | None:
    """The share of three-card hands the player's best three beat, once
    they have looked (None before)."""
    cards = deal.view(player).cards.get(player)
    if cards is None:
        return None
    rules = deal.table.rules
    kept = evaluator_for(rules).best_of(list(cards)).kept if len(cards) > 3 else list(cards)
    return percentile(kept, rules)


def bot_action(deal: Deal, threshold: float) -> Action:
    """What a threshold bot does on its turn: answer a sideshow yes, look
    first, discard all but its best three; then, with a hand that beats at
    least ``threshold`` of all hands, see when it may, else stake the
    least, else cover; with a weaker one, fold."""
    legal = {a.kind: a for a in deal.legal_actions()}
    player = deal.to_act
    assert player is not None
    for kind in ("accept", "look"):
        if kind in legal:
            return Action(kind)
    if "discard" in legal:
        cards = deal.view(player).cards[player]
        return Action("discard", discards=tuple(evaluator_for(deal.table.rules).best_of(list(cards)).discarded))
    share = strength(deal, player)
    strong = share is not None and share >= threshold
    if "draw" in legal or "check" in legal or "call" in legal:
        # Draw Brag: stand pat and call (or check) with a strong hand; draw
        # three and check, or fold to a bet, with a weak one.
        if "draw" in legal:
            cards = deal.view(player).cards.get(player, ())
            return Action("draw", discards=() if strong else tuple(cards))
        return Action("check" if "check" in legal else "call" if strong and "call" in legal else "fold")
    if strong:
        if "see" in legal:
            return Action("see")
        if "stake" in legal:
            return Action("stake", amount=legal["stake"].least)
        if "cover" in legal:
            return Action("cover")
    return Action("fold")


def check_playable(deal: Deal, you: str) -> None:
    """A hand played by hand needs the bots' cards, and the person a seat."""
    if you not in deal.players:
        raise InvalidHandError(f"--you {you!r}: not a player at this table ({', '.join(deal.players)})",
                               field="you")
    hands = deal.to_dict().get("cards")
    if hands is not None:
        unknown = [name for name, hand in zip(deal.players, hands) if hand is None and name != you]
        if unknown:
            raise InvalidHandError(f"the bots need their cards: {', '.join(unknown)}'s hand is not known "
                                   "(give every hand, or deal from --seed)", field="cards")


def play(deal: Deal, you: str, threshold: float, read: TextIO, out: TextIO, echo: bool) -> int:
    """Plays the deal to its end, the person's moves read a line at a time
    from ``read`` (echoed when ``echo``, for input that is not typed)."""
    check_playable(deal, you)
    print(table_line(deal), file=out)
    print(f"you play {you!r} against bots that play by their hand's strength; 'help' lists the moves",
          file=out)
    shown, redraw = len(deal.history), True
    while not deal.over:
        if deal.to_act != you:
            deal = deal.act(bot_action(deal, threshold))
            continue
        for action in deal.history[shown:]:
            print(action_text(action), file=out)
        if redraw or len(deal.history) > shown:
            print(file=out)
            print_state(deal, out, deal.view(you).cards)
        shown, redraw = len(deal.history), False
        text = ask(read, out, echo)
        if text is None:
            print(f"prial: you left the table with the deal unfinished ({deal.to_act} to act)", file=out)
            return 1
        if text in ("help", "?"):
            print(HELP, file=out)
            redraw = True
            continue
        try:
            deal = act_text(deal, text if ":" in text else f"{you}: {text}")
        except IllegalActionError as exc:
            print(f"not allowed: {exc} (code: {exc.code})", file=out)
        except InvalidHandError as exc:
            print(f"not understood: {exc}", file=out)
    for action in deal.history[shown:]:
        print(action_text(action), file=out)
    print(file=out)
    cards = deal.view(None).cards
    mine = deal.view(you).cards.get(you)
    if mine is not None and you not in cards:
        print(f"your cards: {format_cards(list(mine))}", file=out)
    print_result(deal, out, cards)
    return 0


def ask(read: TextIO, out: TextIO, echo: bool) -> str | None:
    """The person's next line that says something; None when they leave."""
    while True:
        print("your move> ", end="", file=out, flush=True)
        line = read.readline()
        if not line:
            print(file=out)
            return None
        text = line.strip()
        if echo:
            print(text, file=out)
        if text in ("quit", "exit"):
            return None
        if text:
            return text
