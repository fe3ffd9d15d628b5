"""The rule both a buffer check's TMA side (theorem 23) and a descriptor check (theorem 14) state where an importer
names the tensors: a TMA partition takes the tiles of the global tensor its atom's tensor map was made from."""
from __future__ import annotations

from .claims import Fact, Suspect


def tiles_of_the_map(who: str, map_of: str, tiles_of: str, blame: Suspect, subject: str) -> Fact:
    """`who`'s TMA partition takes the tiles of the tensor its atom's map was made from (`map_of`): TMA fetches a box
    at the coordinates the partition gives, through the atom's map, so the coordinates of another tensor's tiles
    (`tiles_of`) copy the map's tensor at those coordinates (A's map at B's tile coordinates fills A's view with A's
    elements of B's tiles, or past A's extent; B's map at A's, B's elements)."""
    same = map_of == tiles_of
    actual = (f"its tensor map is made from {map_of}, the tiles its partition takes are {tiles_of}'s"
              + ("" if same else ": it copies the map's tensor at another tensor's tile coordinates"))
    return Fact(f"the {who}'s TMA partition takes the tiles of the tensor its atom's map was made from", same, actual,
                f"the tiles of {map_of}", blame, subject=subject)
