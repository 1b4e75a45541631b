"""What passes from one deal to the next besides the players and stacks:
a pot that stayed, a retained blind hand, who sits out, and, for the
traditional shuffle, the pack (docs/rules.md, "Between deals")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from ..cards import cards_of
from ..errors import InvalidHandError


# The keys of a deal's data (Deal.to_dict) that Carried reads and writes.
CARRIED_KEYS = ("pot", "retained", "sitting_out", "pack", "pack_seed")


class RetainedData(TypedDict):
    """A kept blind hand as data: its player and cards (None: not known)."""

    player: str
    cards: list[int] | None


class CarriedData(TypedDict, total=False):
    """What a deal carries from the one before, as data (Carried.to_dict)."""

    pot: int
    retained: RetainedData
    sitting_out: list[str]
    pack: list[int]
    pack_seed: int


@dataclass(frozen=True)
class Carried:
    pot: int = 0
    retained: str | None = None  # the player keeping a blind hand
    retained_cards: list[int] | None = None  # its cards (None: unknown)
    sitting_out: tuple[str, ...] = ()
    pack: tuple[int, ...] | None = None  # the pack this deal was dealt from (traditional shuffle)
    pack_seed: int | None = None  # the seed that pack came from; the next shuffle takes the one after

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.pot:
            data["pot"] = self.pot
        if self.retained is not None:
            data["retained"] = {"player": self.retained, "cards": self.retained_cards}
        if self.sitting_out:
            data["sitting_out"] = list(self.sitting_out)
        if self.pack is not None:
            data["pack"] = list(self.pack)
        if self.pack_seed is not None:
            data["pack_seed"] = self.pack_seed
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], players: tuple[str, ...]) -> Carried:
        if not isinstance(data, Mapping):
            raise InvalidHandError(f"carried must be a mapping of {', '.join(CARRIED_KEYS)}; got {data!r}",
                                   field="carried")
        unknown = sorted(str(key) for key in data if key not in CARRIED_KEYS)
        if unknown:
            raise InvalidHandError(f"carried: unknown {', '.join(unknown)} (it holds {', '.join(CARRIED_KEYS)})",
                                   field="carried")
        pot = data.get("pot", 0)
        if isinstance(pot, bool) or not isinstance(pot, int) or not 0 <= pot <= 2**53:
            raise InvalidHandError(f"pot must be from 0 to 2**53 chips; got {pot!r}", field="pot")
        retained, retained_cards = None, None
        if data.get("retained") is not None:
            entry = data["retained"]
            if not isinstance(entry, dict) or entry.get("player") not in players:
                raise InvalidHandError("retained must name a player at the table and their cards", field="retained")
            retained = entry["player"]
            if entry.get("cards") is not None:
                retained_cards = cards_of(entry["cards"], "retained cards")
        sitting_out = data.get("sitting_out", [])
        if not isinstance(sitting_out, list) or any(name not in players for name in sitting_out):
            raise InvalidHandError("sitting_out must list players at the table", field="sitting_out")
        pack = data.get("pack")
        if pack is not None and (not isinstance(pack, list) or sorted(pack) != sorted(set(pack))):
            raise InvalidHandError("pack must list distinct cards", field="pack")
        pack_seed = data.get("pack_seed")
        if pack_seed is not None and (isinstance(pack_seed, bool) or not isinstance(pack_seed, int)
                                      or not 0 <= pack_seed < 2**64):
            raise InvalidHandError(f"pack_seed must be from 0 to 2**64 - 1; got {pack_seed!r}", field="pack_seed")
        return cls(pot, retained, retained_cards, tuple(sitting_out), None if pack is None else tuple(pack),
                   pack_seed)
