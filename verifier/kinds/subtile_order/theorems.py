"""Theorem 42: an epilogue's loop over the subtiles of an accumulator stage stores each where it belongs.

Each pass of the loop loads a subtile of the stage from tensor memory into registers, copies the registers into a
stage of the staged shared subtile, and a TMA store puts a stage of it at a place of the output tile.  A stage holds
what the copy of this pass that last wrote it put there: the store of subtile i reads stage r_i, so it puts the
subtile loaded by the last pass j <= i whose copy wrote r_i -- none, and it puts what an earlier tile (or nothing)
left there.  The theorem: for every subtile i such a pass j exists and the subtile it loaded starts where the store of
i puts its box; the subtiles loaded tile the accumulator stage, and no two stores put theirs at one place (every
element of the stage stored, once).  A place is (m, n) of the output tile the stage is stored to (the DSL reader
reads it off the divided tile the stores' coordinates come from).  Decided by enumerating the subtiles."""
from __future__ import annotations

from ...theorems.claims import Fact, Item, Plan
from ...theorems.suspects import Suspects
from .config import SubtileOrderCheck


def subtile_order(check: SubtileOrderCheck, suspects: Suspects) -> Plan:
    blame = suspects.field("subtile_order", "the epilogue loop's subtiles: the tensor-memory subtile each pass "
                                            "loads, the shared stages its copy and its TMA store take, the store's "
                                            "place")
    (rows, cols), (m_extent, n_extent) = check.subtile, check.tile
    loads = [s.load for s in check.subtiles]
    grid = {(m, n) for m in range(0, m_extent, rows) for n in range(0, n_extent, cols)}
    stray = [i for i, at in enumerate(loads) if at not in grid]
    missing = sorted(grid - set(loads))
    tiled = not stray and not missing and len(set(loads)) == len(loads) and m_extent % rows == 0 and \
        n_extent % cols == 0
    items: list[Item] = [Fact("the subtiles loaded tile the accumulator stage, each once", tiled,
                        f"subtile {stray[0]} loads at {loads[stray[0]]}, no subtile origin" if stray else
                        f"no subtile loads at {missing[0]}" if missing else
                        "a subtile loaded twice" if len(set(loads)) != len(loads) else
                        f"{len(loads)} subtiles of {rows}x{cols}",
                        f"the {len(grid)} subtiles of {rows}x{cols} of the {m_extent}x{n_extent} stage", blame,
                        domain_size=len(loads))]
    last_write: dict[int, int] = {}
    wrong: list[tuple[int, str, str]] = []
    for i, s in enumerate(check.subtiles):
        last_write[s.write] = i                        # the copy of pass i runs before its store
        j = last_write.get(s.read)
        place = s.place
        if j is None:
            wrong.append((i, f"the store of subtile {i} reads stage {s.read}, which no copy of this pass wrote "
                             f"before it (what an earlier tile left, or nothing)",
                          f"a stage written by the copy of subtile {i} or of one before it"))
        elif check.subtiles[j].load != place:
            wrong.append((i, f"the store of subtile {i} puts the subtile loaded at {check.subtiles[j].load} (stage "
                             f"{s.read}, written by the copy of subtile {j}) at {place}",
                          f"the subtile loaded at {place}"))
    first = wrong[0] if wrong else None
    items.append(Fact("each subtile's TMA store puts the subtile its stage holds where that subtile belongs",
                      first is None, first[1] if first else f"{len(check.subtiles)} stores, each its own subtile",
                      first[2] if first else "the subtile loaded at each store's place", blame,
                      point={"subtile": first[0]} if first else None, failing=len(wrong),
                      domain_size=len(check.subtiles)))
    places = [s.place for s in check.subtiles]
    twice = next((i for i, p in enumerate(places) if places.index(p) != i), None)
    items.append(Fact("no two stores put their subtiles at one place", twice is None,
                      f"the stores of subtiles {places.index(places[twice])} and {twice} both put theirs at "
                      f"{places[twice]}" if twice is not None else f"{len(set(places))} places",
                      "a place a store", blame, point={"subtile": twice} if twice is not None else None,
                      domain_size=len(places)))
    return items


__all__ = ["subtile_order"]
