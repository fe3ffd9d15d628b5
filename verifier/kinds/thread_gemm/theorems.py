"""Theorems 44 and 45: a block's GEMM computed by CuTe's `gemm` on the threads' own partitions.

Theorem 44 (`gemm.thread_products`): CuTe's gemm adds A's value (i, k) times B's value (j, k) into C's value (i, j)
of each thread t.  The block computes C = A B^T on its tile exactly when C's threads and values cover the
(BLK_M, BLK_N) tile once, and for every (t, i, j, k) A's value is at C's row and B's at C's column, both at one k,
every row of A's fragment taking each k of the tile once.

Theorem 45 (`gemm.shared_fill`): for each operand whose fill is stated, the shared tile holds the global tile's
element at each coordinate: its layout gives distinct coordinates distinct elements (else a copy overwrites
another's element), each copied value lands at the coordinate it has in the global tile, every element of the tile is
written, the global tile is C's block along the operand's rows, and both operands copy the same k-tiles.

Both are decided by enumerating every point (thread, value, k): a few hundred thousand at most.

Theorem 46 (`gemm.k_tile_loop`, where the check states its `k_loop`): the loop around the gemm runs its variable over
0, 1, ..., K-1, each once, for every k-tile count K >= 1.  Decided by the loop's closed form: it runs start, start +
step, ... while v <condition> a*K + b, which is 0..K-1 for every K exactly when start = 0, step = 1 and the bound is K
(K - 1 with <=); any other loop already differs at K = 1 or K = 2 (start: at K = 1; a step other than 1: at K = 2; a
bound a*K + b: a + b = 1 and 2a + b = 2 force a = 1, b = 0), the least such K being its witness."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ...theorems.claims import Fact, Item, Plan, Suspect, Unsupported
from ...algebra.swizzle import ComposedLayout
from .config import K_CONDITIONS, Fill, Fragment, KLoop, Operand, ThreadGemmCheck

ENUMERATION = "exhaustive enumeration of every (thread, value) point"
CLOSED_FORM = ("the loop's closed form: start, start + step, ... while the condition holds is 0..K-1 for every K >= 1 "
               "exactly when start = 0, step = 1 and the bound is K (K - 1 with <=); another loop differs at K = 1 "
               "or 2")
PASSES = "Z3 over every k-tile count K >= 1 and pass 0 <= v < K (the expressions the reader simulated)"
WITNESS_KS = (1, 2)             # a loop not of the closed form differs from 0..K-1 at one of these
MAX_POINTS = 1 << 24            # (thread, i, j, k) points a check enumerates
OPERAND_NAME = {"a": "A", "b": "B", "c": "C"}


def _indices(f: Fragment, threads: int) -> np.ndarray:
    """Every (thread, row value, column value) of a gemm fragment -> its tile index, shape (T, R, S)."""
    rows, cols = f.extent(0), f.extent(1)
    delta = np.array([[f.index(0, (r, s)) - f.origins[0] for s in range(cols)] for r in range(rows)],
                     dtype=np.int64)
    return np.asarray(f.origins[:threads], dtype=np.int64)[:, None, None] + delta[None, :, :]


def _flat_indices(f: Fragment, threads: int) -> np.ndarray:
    """Every (thread, value) of a copy's side -> its tile index, shape (T, V) (values colexicographic)."""
    delta = np.array([f.index(0, v) - f.origins[0] for v in range(int(f.values.size()))], dtype=np.int64)
    return np.asarray(f.origins[:threads], dtype=np.int64)[:, None] + delta[None, :]


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in np.argwhere(mask)[0])


def _suspect(op: Operand) -> Suspect:
    return Suspect(f"{OPERAND_NAME[op.name]}'s fragment (origins, values)", op.fragment.loc)


def _coverage(f: Fragment, idx: np.ndarray, what: str, suspect: Suspect,
              value_text: Callable[[int], str]) -> Fact:
    """The fragment's points cover its tile once (idx: the points' indices, thread first)."""
    rows, cols = f.tile
    size = rows * cols
    flat = idx.reshape(idx.shape[0], -1)
    title = f"{what}'s threads and values cover its {rows}x{cols} tile, each element once"
    outside = (flat < 0) | (flat >= size)
    if outside.any():
        t, x = _first(outside)
        e = int(flat[t, x])
        return Fact(title, False, f"thread {t}'s {value_text(x)} is at index {e}, outside the tile",
                    f"the {rows}x{cols} tile, each element once", suspect, note=ENUMERATION,
                    point={"thread": t, "value": x}, domain_size=flat.size)
    counts = np.bincount(flat.ravel(), minlength=size)
    if (counts > 1).any():
        e = int(np.argmax(counts > 1))
        hits = np.argwhere(flat == e)[:2]
        (t0, x0), (t1, x1) = (tuple(int(v) for v in h) for h in hits)
        return Fact(title, False, f"thread {t0}'s {value_text(x0)} and thread {t1}'s {value_text(x1)} are both "
                    f"element {(e % rows, e // rows)}", f"the {rows}x{cols} tile, each element once", suspect,
                    note=ENUMERATION, point={"thread": t1, "value": x1}, domain_size=flat.size)
    if (counts == 0).any():
        e = int(np.argmax(counts == 0))
        return Fact(title, False, f"element {(e % rows, e // rows)} of the tile is held by no thread",
                    f"the {rows}x{cols} tile, each element once", suspect, note=ENUMERATION,
                    domain_size=flat.size)
    return Fact(title, True, f"{size} elements, each once", f"the {rows}x{cols} tile, each element once", suspect,
                note=ENUMERATION, domain_size=flat.size)


def thread_products(check: ThreadGemmCheck) -> Plan:
    a, b, c = check.a.fragment, check.b.fragment, check.c.fragment
    rows_i, cols_j, depth = c.extent(0), c.extent(1), a.extent(1)
    threads = check.threads
    points = threads * rows_i * cols_j * depth
    if points > MAX_POINTS:
        return Unsupported(f"{points} (thread, i, j, k) points to enumerate, more than {MAX_POINTS}")
    bm, bn, bk = check.tile
    a_idx, b_idx, c_idx = _indices(a, threads), _indices(b, threads), _indices(c, threads)

    def c_value(x: int) -> str:          # x: (i, j) flattened as numpy does, j fastest
        return f"value (i={x // cols_j}, j={x % cols_j})"
    items: list[Item] = [_coverage(c, c_idx, "C", _suspect(check.c), c_value)]
    # (t, i, j, k): A (t, i, k), B (t, j, k), C (t, i, j)
    a_row, a_k = a_idx % bm, a_idx // bm                 # (T, I, K)
    b_row, b_k = b_idx % bn, b_idx // bn                 # (T, J, K)
    c_row, c_col = c_idx % bm, c_idx // bm               # (T, I, J)
    inside_a = ((a_idx >= 0) & (a_idx < bm * bk)).all()
    inside_b = ((b_idx >= 0) & (b_idx < bn * bk)).all()
    title = "every product multiplies A's element of C's row by B's element of C's column, at one k"
    expected = "A (m, k) and B (n, k) for C's element (m, n)"
    blame = Suspect("A's and B's fragments against C's", check.loc)
    if not inside_a or not inside_b:
        op, idx, rows = (check.a, a_idx, bm) if not inside_a else (check.b, b_idx, bn)
        size = rows * bk
        t, r, k = _first((idx < 0) | (idx >= size))
        items.append(Fact(title, False, f"thread {t}'s {OPERAND_NAME[op.name]} value ({r}, {k}) is at index "
                          f"{int(idx[t, r, k])}, outside the {rows}x{bk} tile", expected, _suspect(op),
                          note=ENUMERATION, point={"thread": t, "row": r, "k": k}, domain_size=points))
        return items
    wrong_m = a_row[:, :, None, :] != c_row[:, :, :, None]          # (T, I, J, K)
    wrong_n = b_row[:, None, :, :] != c_col[:, :, :, None]
    wrong_k = a_k[:, :, None, :] != b_k[:, None, :, :]
    wrong = wrong_m | wrong_n | wrong_k
    if wrong.any():
        t, i, j, k = _first(wrong)
        am, ak = int(a_row[t, i, k]), int(a_k[t, i, k])
        bn_, bk_ = int(b_row[t, j, k]), int(b_k[t, j, k])
        cm, cn = int(c_row[t, i, j]), int(c_col[t, i, j])
        suspect = _suspect(check.a) if wrong_m[t, i, j, k] else _suspect(check.b) if wrong_n[t, i, j, k] else blame
        items.append(Fact(title, False, f"thread {t}, C value (i={i}, j={j}) is C({cm}, {cn}) of the tile; its product "
                          f"k={k} multiplies A({am}, {ak}) by B({bn_}, {bk_})",
                          f"A({cm}, k) by B({cn}, k) at one k", suspect, note=ENUMERATION,
                          point={"thread": t, "i": i, "j": j, "k": k}, domain_size=points))
        return items
    items.append(Fact(title, True, f"{points} (thread, i, j, k) points", expected, blame, note=ENUMERATION,
                      domain_size=points))
    # every row of A's fragment takes each k of the tile once
    ks = np.sort(a_k, axis=2)
    once = (ks == np.arange(bk)[None, None, :]) if depth == bk else np.zeros(ks.shape, dtype=bool)
    title = f"each row of a thread's fragment multiplies every k of the {bk}-deep tile once"
    if not once.all():
        t, i = _first(np.asarray(~once.all(axis=2)))
        taken = sorted(int(x) for x in a_k[t, i])
        items.append(Fact(title, False, f"thread {t}'s row i={i} takes k = {taken}", f"k = 0..{bk - 1}, each once",
                          _suspect(check.a), note=ENUMERATION, point={"thread": t, "i": i},
                          domain_size=threads * rows_i))
    else:
        items.append(Fact(title, True, f"{threads * rows_i} rows, each k once", f"k = 0..{bk - 1}, each once",
                          _suspect(check.a), note=ENUMERATION, domain_size=threads * rows_i))
    return items


def _distinct_elements(fill: Fill) -> tuple[np.ndarray, str]:
    """Every coordinate of the shared tile, stages included (colexicographic) -> its element, and a note: a swizzle
    composed after the layout permutes the elements, so the layout before it decides."""
    smem = fill.smem
    note = ""
    if isinstance(smem, ComposedLayout):      # its outer function a swizzle (config.py refuses another)
        smem, note = smem.b, "; the swizzle after the layout permutes elements: the layout decides"
    return np.array([int(smem(e)) for e in range(int(smem.size()))], dtype=np.int64), note


def _fill_items(threads: int, c_tile_at: tuple[str, str] | None, operand: str, tile: tuple[int, int],
                fill: Fill) -> list[Item]:
    """Theorem 45's facts on one operand's fill (`operand`: a or b; `tile`: its shared tile's (rows, k))."""
    name = OPERAND_NAME[operand]
    rows, depth = tile
    fill_suspect = Suspect(f"{name}'s fill", fill.loc)
    smem_suspect = Suspect(f"{name}'s shared layout (smem)", fill.loc)
    items: list[Item] = []
    # the shared layout: distinct coordinates (of every stage), distinct elements
    flat, note = _distinct_elements(fill)
    stage = rows * depth
    stages = flat.size // stage
    title = (f"{name}'s shared layout gives distinct coordinates of its {rows}x{depth} tile"
             + (f" and its {stages} stages" if stages > 1 else "") + " distinct elements")
    elements, counts = np.unique(flat, return_counts=True)
    if (counts > 1).any():
        element = int(elements[np.argmax(counts > 1)])
        e0, e1 = (int(x) for x in np.argwhere(flat == element).ravel()[:2])

        def where(e: int) -> str:
            r, k, st = e % rows, (e // rows) % depth, e // stage
            return f"({r}, {k})" + (f" of stage {st}" if stages > 1 else "")
        items.append(Fact(title, False, f"{where(e0)} and {where(e1)} are both element {element}",
                          "distinct elements", smem_suspect, note=ENUMERATION + note, domain_size=flat.size))
    else:
        items.append(Fact(title, True, f"{flat.size} coordinates, distinct elements", "distinct elements",
                          smem_suspect, note=ENUMERATION + note, domain_size=flat.size))
    dst = _flat_indices(fill.destination, threads)
    d_rows = rows
    for source in fill.sources:
        src = _flat_indices(source.fragment, threads)
        s_rows, s_depth = source.fragment.tile
        what = f"{name} copies from {source.tensor}"
        src_suspect = Suspect(f"{name}'s source {source.tensor} at {source.tile_at}", source.loc)
        outside = (src < 0) | (src >= s_rows * s_depth)
        title = f"every value {what} is an element of its {s_rows}x{s_depth} global tile"
        if outside.any():
            t, v = _first(outside)
            items.append(Fact(title, False, f"thread {t}'s value {v} reads index {int(src[t, v])} of the global tile, "
                              "outside it (another block's or k-tile's element)", "an element of the tile",
                              src_suspect, note=ENUMERATION, point={"thread": t, "value": v}, domain_size=src.size))
        else:
            items.append(Fact(title, True, f"{src.size} (thread, value) points", "an element of the tile",
                              src_suspect, note=ENUMERATION, domain_size=src.size))
        title = f"every value {what} lands at the coordinate it has in the global tile"
        src_m, src_k, dst_m, dst_k = src % s_rows, src // s_rows, dst % d_rows, dst // d_rows
        wrong = (src_m != dst_m) | (src_k != dst_k)
        if wrong.any():
            t, v = _first(wrong)
            items.append(Fact(title, False, f"thread {t}'s value {v} copies the global tile's ({int(src_m[t, v])}, "
                              f"{int(src_k[t, v])}) to the shared tile's ({int(dst_m[t, v])}, {int(dst_k[t, v])})",
                              "the same coordinate on both sides", src_suspect, note=ENUMERATION,
                              point={"thread": t, "value": v}, domain_size=src.size))
        else:
            items.append(Fact(title, True, f"{src.size} (thread, value) points", "the same coordinate on both sides",
                              src_suspect, note=ENUMERATION, domain_size=src.size))
        if c_tile_at is not None:
            want = c_tile_at[0 if operand == "a" else 1]
            mode = "rows" if operand == "a" else "columns"
            items.append(Fact(f"{name}'s tile of {source.tensor} is taken at C's block along C's {mode}",
                              source.tile_at == want, f"{name}'s tile of {source.tensor} at {source.tile_at}",
                              f"{want} (C's {mode})", src_suspect))
    size = rows * depth
    written = np.zeros(size, dtype=bool)
    inside = (dst >= 0) & (dst < size)
    written[dst[inside]] = True
    title = f"{name}'s fill writes every element of the shared tile"
    if not inside.all() or not written.all():
        if not inside.all():
            t, v = _first(~inside)
            actual = f"thread {t}'s value {v} writes index {int(dst[t, v])}, outside the {rows}x{depth} tile"
        else:
            hole = int(np.argmax(~written))
            actual = f"no thread writes ({hole % rows}, {hole // rows}): the gemm reads what the tile held before"
        items.append(Fact(title, False, actual, f"the {rows}x{depth} tile", fill_suspect, note=ENUMERATION,
                          domain_size=dst.size))
    else:
        items.append(Fact(title, True, f"{size} elements written", f"the {rows}x{depth} tile", fill_suspect,
                          note=ENUMERATION, domain_size=dst.size))
    return items


def fill_items(threads: int, c_tile_at: tuple[str, str] | None,
               fills: list[tuple[str, tuple[int, int], Fill]], loop: KLoop | None = None) -> list[Item]:
    """Theorem 45 on the fills given, (operand, its shared tile's (rows, k), fill) each; with both A's and B's, that
    they copy the same k-tiles as written -- unless the k-tile loop states what each pass's gemm reads (`loop`'s
    reads), which theorem 46 decides for every pass instead (a copy that changes nothing, an extra load the next
    overwrites, is no mistake there)."""
    items: list[Item] = []
    for operand, tile, fill in fills:
        items += _fill_items(threads, c_tile_at, operand, tile, fill)
    by = {operand: fill for operand, _, fill in fills}
    fa, fb = by.get("a"), by.get("b")
    if fa is not None and fb is not None and not (loop is not None and loop.reads):
        items.append(Fact("A's and B's fills copy the same k-tiles", fa.k_tiles == fb.k_tiles,
                          f"A at {list(fa.k_tiles)}, B at {list(fb.k_tiles)}", "the same k-tiles, in order",
                          Suspect("the fills' k-tiles", fb.loc)))
    return items


def shared_fill(check: ThreadGemmCheck) -> Plan:
    return fill_items(check.threads, check.c.tile_at, [(op.name, op.fragment.tile, op.fill)
                                                      for op in (check.a, check.b) if op.fill is not None],
                      check.k_loop)


def loop_runs(loop: KLoop, k_tiles: int, most: int) -> tuple[list[int], bool]:
    """The values the loop gives its variable for `k_tiles` k-tiles, at most `most` of them (and whether it runs on
    past them)."""
    a, b = loop.bound
    bound = a * k_tiles + b
    holds = K_CONDITIONS[loop.condition]
    runs: list[int] = []
    v = loop.start
    while holds(v, bound):
        if len(runs) == most:
            return runs, True
        runs.append(v)
        v += loop.step
    return runs, False


def closed_form(loop: KLoop) -> bool:
    """Whether the loop runs 0..K-1 for every K >= 1 (the module's closed form)."""
    return loop.start == 0 and loop.step == 1 and loop.bound == (1, -1 if loop.condition == "<=" else 0)


def k_tile_loop(loop: KLoop) -> Plan:
    """Theorem 46 on the loop around the gemm."""
    v = loop.variable
    title = f"the k-tile loop runs {v} over 0, 1, ..., K-1, each once, for every k-tile count K >= 1"
    suspect = Suspect("the k-tile loop (k_loop)", loop.loc)
    items: list[Item] = [_range_fact(loop, title, suspect)]
    if loop.reads:
        items.append(_reads_fact(loop))
    return items


def _range_fact(loop: KLoop, title: str, suspect: Suspect) -> Fact:
    v = loop.variable
    if closed_form(loop):
        return Fact(title, True, loop.header(), f"{v} = 0..K-1", suspect, note=CLOSED_FORM)
    for k in WITNESS_KS:
        runs, more = loop_runs(loop, k, k + 1)
        if more or runs != list(range(k)):
            shown = ", ".join(map(str, runs)) + (", ... without end" if more else "")
            return Fact(title, False, f"{loop.header()}: for K = {k} it runs {v} = [{shown}]",
                        f"{v} = [{', '.join(map(str, range(k)))}]", suspect, note=CLOSED_FORM, point={"k_tiles": k})
    raise AssertionError(f"{loop.header()} differs from 0..K-1 only past K = {WITNESS_KS[-1]}")


def _reads_fact(loop: KLoop) -> Fact:
    """Each pass's gemm multiplies its own k-tile: every operand's tile holds k-tile v at pass v's gemm, for every K
    (pass_reads.py)."""
    from .pass_reads import first_wrong_pass
    v = loop.variable
    title = f"each pass's gemm multiplies its own k-tile: every operand's tile holds k-tile {v} at pass {v}'s gemm"
    suspect = Suspect("the k-tile loop's copies (k_loop reads)", loop.loc)
    wrong = first_wrong_pass(loop.reads, v)
    if wrong is None:
        return Fact(title, True, "; ".join(f"{OPERAND_NAME[o]}'s tile holds {e}" for o, e in loop.reads),
                    f"k-tile {v}", suspect, note=PASSES)
    shown = ", ".join(f"{OPERAND_NAME[o]}'s k-tile {h}" + (" (none: no copy before it)" if h < 0 else "")
                      for o, h in wrong.held)
    return Fact(title, False, f"for K = {wrong.k_tiles}, pass {v} = {wrong.pass_}'s gemm multiplies {shown}",
                f"k-tile {wrong.pass_}", suspect, note=PASSES, point={"k_tiles": wrong.k_tiles, "pass": wrong.pass_})


__all__ = ["thread_products", "shared_fill", "fill_items", "k_tile_loop", "closed_form", "loop_runs"]
