"""Theorem 43: an element-wise kernel computes every output element from its inputs at the element's own coordinate.

Each side (the output, each input) is a tensor of shape (M, N) divided by its tiler (TM, TN) -- CuTe's zipped_divide,
((TM, TN), (M / TM, N / TN)) -- sliced at the rest index r every side takes alike, and partitioned by its tiled copy
at the thread t every side takes alike (or taken whole by the thread); a side may take the tile r + c of its own
constant c (`tile_offset`), and thread t the slice f(t) of its tiled copy (`thread`, an expression of tid).  Value v
of thread t of side s then holds the element at

    coordinate_s(r, t, v) = origin_s(r + c_s) + within_s(index_s(f_s(t), v))

origin_s(r) the tile r's first element ((r mod M/TM) TM, (r div M/TM) TN), index_s(t, v) the tiled copy's layout_tv
(the tile's colexicographic index), within_s(e) = (e mod TM, e div TM).  Every output value v is computed, lane by
lane, from the listed input values (k, q); the theorem: coordinate_out(r, t, v) = coordinate_k(r, t, q) for every
tile r of the output, thread and pair -- and the output's values cover its tile once.  Both coordinates are read as
one integer, m + M n: the sum of a part of r alone and a part of (t, v) alone, so the equation holds for every
(r, t, v) exactly when the difference of the r parts is one constant over r and equals every difference of the (t, v)
parts; both are enumerated (every r, every (t, v, q)), which decides all R x T x V points."""
from __future__ import annotations

from ...theorems.claims import Fact, Item, Plan, Suspect, Unsupported
from ...theorems.suspects import Suspects
from .config import ElementwiseCheck, Side

ENUMERATION = "exhaustive enumeration of the tile part and the thread part (the coordinate is their sum)"
MAX_POINTS = 1 << 24            # tiles plus (thread, value, source) triples a check enumerates


def _slice_in(side: Side, tid: int) -> bool:
    try:
        return 0 <= side.slice_of(tid) < side.threads
    except ZeroDivisionError:
        return False


def _slice_text(side: Side, tid: int) -> str:
    try:
        return str(side.slice_of(tid))
    except ZeroDivisionError:
        return "none (its expression divides by zero)"


def _rest(side: Side, shape: tuple[int, int], r: int) -> tuple[int, int]:
    """(m, n) of tile r's first element."""
    rows = shape[0] // side.tile[0]
    return (r % rows) * side.tile[0], (r // rows) * side.tile[1]


def _within(side: Side, t: int, v: int) -> tuple[int, int]:
    e = side.index(t, v)
    return e % side.tile[0], e // side.tile[0]


def _coordinate(side: Side, shape: tuple[int, int], r: int, t: int, v: int) -> tuple[int, int]:
    (m0, n0), (m, n) = _rest(side, shape, r), _within(side, t, v)
    return m0 + m, n0 + n


def _linear(mn: tuple[int, int], shape: tuple[int, int]) -> int:
    return mn[0] + shape[0] * mn[1]


def elementwise(check: ElementwiseCheck, suspects: Suspects) -> Plan:
    shape = check.shape
    sides = (check.output,) + check.inputs
    names = ["the output"] + [f"input {k}" for k in range(len(check.inputs))]
    for name, side in zip(names, sides):
        if shape[0] % side.tile[0] or shape[1] % side.tile[1]:
            return Unsupported(f"{name}'s tile {side.tile[0]}x{side.tile[1]} does not divide the shape "
                               f"{shape[0]}x{shape[1]}: partial tiles (which CuTe's copies predicate) are not modelled")
    values_blame = Suspect("the inputs' values each output value is computed from", check.values_loc)
    out = check.output
    threads = max(s.threads for s in sides)
    uneven = next((i for i, s in enumerate(sides) if s.threads not in (1, threads)), None)
    items: list[Item] = [Fact("every side is partitioned among the same threads", uneven is None,
                              f"{names[uneven]} is partitioned among {sides[uneven].threads} threads"
                              if uneven is not None else f"{threads} threads",
                              f"{threads} threads (the most any side takes), or one taking its slice whole",
                              Suspect(f"{names[uneven]}'s tiled copy", sides[uneven].loc)
                              if uneven is not None else values_blame)]
    bad_value = next(((i, k, q) for i, pairs in enumerate(check.values) for k, q in pairs
                      if q >= check.inputs[k].values), None)
    counted = len(check.values) == out.values and bad_value is None
    items.append(Fact("each output value is computed from values the inputs' threads hold", counted,
                      f"{len(check.values)} output values listed" if len(check.values) != out.values else
                      f"output value {bad_value[0]} from value {bad_value[2]} of input {bad_value[1]}, which holds "
                      f"{check.inputs[bad_value[1]].values}" if bad_value else f"{out.values} output values",
                      f"{out.values} output values, each from values the inputs hold", values_blame))
    if not all(isinstance(i, Fact) and i.holds for i in items):
        return items
    stray = next(((i, tid) for i, s in enumerate(sides) if s.thread is not None for tid in range(threads)
                  if not _slice_in(s, tid)), None)
    if stray is not None:
        side, tid = sides[stray[0]], stray[1]
        expression = side.thread.text if side.thread is not None else "tid"
        return items + [Fact("every thread takes a slice of each side's tiled copy", False,
                             f"thread {tid} takes slice {_slice_text(side, tid)} ({expression}) of "
                             f"{names[stray[0]]}'s tiled copy", f"a slice of 0..{side.threads - 1}",
                             Suspect(f"{names[stray[0]]}'s thread", side.loc), point={"thread": tid})]
    # the output's values cover its tile, each element once
    tile_size = out.tile[0] * out.tile[1]
    seen: dict[int, tuple[int, int]] = {}
    twice: tuple[tuple[int, int], tuple[int, int]] | None = None
    outside: tuple[int, int] | None = None
    for t in range(out.threads):
        for v in range(out.values):
            e = out.index(t, v)
            if not 0 <= e < tile_size:
                outside = outside or (t, v)
            elif e in seen:
                twice = twice or (seen[e], (t, v))
            else:
                seen[e] = (t, v)
    covered = twice is None and outside is None and len(seen) == tile_size
    missing = next((e for e in range(tile_size) if e not in seen), None)
    items.append(Fact("the output's threads and values cover its tile, each element once", covered,
                      f"thread {outside[0]}'s value {outside[1]} lies outside the tile" if outside else
                      f"threads {twice[0][0]} (value {twice[0][1]}) and {twice[1][0]} (value {twice[1][1]}) store "
                      f"one element" if twice else
                      f"element {(missing % out.tile[0], missing // out.tile[0])} of the tile is stored by no thread"
                      if missing is not None else f"{tile_size} elements, each once",
                      f"the {out.tile[0]}x{out.tile[1]} tile, each element once",
                      Suspect("the output's tiled copy (thread_values)", out.loc),
                      point={"thread": (outside or (twice[1] if twice else (0, 0)))[0],
                             "value": (outside or (twice[1] if twice else (0, 0)))[1]} if outside or twice else None,
                      domain_size=out.threads * out.values))
    tiles = _tiles(out, shape)
    # r: the output takes tile r + its offset, input k tile r + its own; first the r at which every side has its tile
    low = max(-s.tile_offset for s in sides)
    high = min(_tiles(s, shape) - s.tile_offset for s in sides)
    bases = range(low, max(low, high))
    short = next(((k, r) for k, s in enumerate(check.inputs) for r in (-out.tile_offset, tiles - 1 - out.tile_offset)
                  if not 0 <= r + s.tile_offset < _tiles(s, shape)), None)
    in_range = Fact("every input has a tile for each of the output's", short is None,
                    f"{tiles} output tiles, each with its input tiles" if short is None else
                    f"the output's tile {short[1] + out.tile_offset} reads input {short[0]}'s tile "
                    f"{short[1] + check.inputs[short[0]].tile_offset}, one of none: divided by "
                    f"{check.inputs[short[0]].tile[0]}x{check.inputs[short[0]].tile[1]} it has tiles 0.."
                    f"{_tiles(check.inputs[short[0]], shape) - 1}",
                    f"an input tile for each of the output's {tiles}",
                    Suspect(f"input {short[0]}'s tile", check.inputs[short[0]].loc) if short else values_blame,
                    point={"tile": short[1] + out.tile_offset} if short else None)
    if not bases:
        return items + [in_range]
    points = len(bases) * threads * out.values
    work = tiles * len(check.inputs) + threads * sum(len(p) for p in check.values)
    if work > MAX_POINTS:
        return Unsupported(f"{work} tiles and (thread, value) pairs to enumerate, more than {MAX_POINTS}")
    witness = _first_mismatch(check, bases, threads)
    title = "every output value is computed from the inputs' values at its own coordinate"
    if witness is None:
        items.append(Fact(title, True, f"{points} (tile, thread, value) points of the {len(bases)} tiles every side "
                          "has", "the same coordinate on every side", values_blame, note=ENUMERATION,
                          domain_size=points))
    else:
        r, t, v, k, q = witness
        side = check.inputs[k]
        got = _coordinate(side, shape, r + side.tile_offset, t, q)
        want = _coordinate(out, shape, r + out.tile_offset, t, v)
        other = f" (its tile {r + side.tile_offset})" if side.tile_offset != out.tile_offset else ""
        items.append(Fact(title, False,
                          f"tile {r + out.tile_offset}, thread {t}: output value {v} is the output's element {want}, "
                          f"computed from value {q} of input {k}{other}, its element {got}",
                          f"input {k}'s element {want}", values_blame, note=ENUMERATION,
                          point={"tile": r + out.tile_offset, "thread": t, "value": v}, domain_size=points))
    return items + [in_range]


def _tiles(side: Side, shape: tuple[int, int]) -> int:
    return (shape[0] // side.tile[0]) * (shape[1] // side.tile[1])


def _rest_part(side: Side, out: Side, shape: tuple[int, int], r: int) -> int:
    """The output's tile part at rest index r less the input's (each side at r plus its offset), as linear
    coordinates."""
    return _linear(_rest(out, shape, r + out.tile_offset), shape) - \
        _linear(_rest(side, shape, r + side.tile_offset), shape)


def _part(side: Side, out: Side, shape: tuple[int, int], t: int, v: int, q: int) -> int:
    """The input's (thread, value) part less the output's, as linear coordinates."""
    return _linear(_within(side, t, q), shape) - _linear(_within(out, t, v), shape)


def _first_mismatch(check: ElementwiseCheck, bases: range, threads: int) -> tuple[int, int, int, int, int] | None:
    """The smallest (tile, thread, output value) whose coordinates differ from an input value's it is computed from,
    with that input and value; None where none does.  For each input the point (r, t, v) fails exactly where the
    difference of the tile parts at r is not the difference of the (thread, value) parts at (t, v): a (t, v) whose
    part differs from tile 0's fails at tile 0; else the first tile whose part differs fails at the first pair."""
    shape, out = check.shape, check.output
    found: list[tuple[int, int, int, int, int]] = []
    for k, side in enumerate(check.inputs):
        pairs = [(v, q) for v, sources in enumerate(check.values) for kk, q in sources if kk == k]
        if not pairs:
            continue
        first = bases[0]
        at_first = _rest_part(side, out, shape, first)
        hit = next(((first, t, v, k, q) for t in range(threads) for v, q in pairs
                    if _part(side, out, shape, t, v, q) != at_first), None)
        if hit is None:
            r = next((r for r in bases if _rest_part(side, out, shape, r) != at_first), None)
            hit = None if r is None else (r, 0, pairs[0][0], k, pairs[0][1])
        if hit is not None:
            found.append(hit)
    return min(found) if found else None


__all__ = ["elementwise"]
