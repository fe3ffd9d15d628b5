"""The loop that runs a gemm's k-tiles, as the C++ reader reads it (theorem 46's facts).

A thread-gemm (or operand-fills) check proves what one k-tile's pass computes; which k-tiles the passes take is the
loop's: `for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile)`, `K_TILE_MAX = size<2>(tAgA)`.  The loop read is the
innermost braced `for` around the gemm whose variable the fills' k-tile indices name (`tAgA(_, _, k_tile)`), itself
or through a local made from it (`int k_tile_next = (k_tile + 1 < K_TILE_MAX) ? k_tile + 1 : k_tile`).  Its clauses
must be `v = <integer>`, `v < | <= | != <bound>` (or the bound first, mirrored) and `++v`, `v++`, `v += <integer>`
(`--v`, `v--`, `v -= <integer>` as negative steps), the bound a sum of integers and k-tile counts: `size<r>(P)` of a
global partition P the fills index at mode r, each of whose extents there is K = ceil(problem K / BLK_K) -- directly
or through a local initialized so.  Anything else is a reason the caller states (the loop is then assumed)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from .instrument import Block, Loop, Statement
from .thread_slices import without_casts

MAX_ALIASES = 8                   # locals a bound is followed back through
_IDENT = re.compile(r"[A-Za-z_]\w*")
_INIT = re.compile(r"^(?:[A-Za-z_][\w:<>\s]*?\s+)?([A-Za-z_]\w*)\s*=\s*(.+)$")
_INT = re.compile(r"^[+-]?\d+[uUlL]*$")
_SIZE = re.compile(r"^(?:cute\s*::\s*)?size\s*<\s*(\d+)\s*>\s*\(\s*([A-Za-z_]\w*)\s*\)$")
MIRRORED = {">": "<", ">=": "<=", "!=": "!="}
UNCONDITIONAL = ("",)                  # blocks whose statements run whenever the block is reached
LOOPS = ("for", "while", "do")
LEAVES = re.compile(r"\b(?:break|continue|return|goto|throw)\b")    # statements that end a pass early


@dataclass(frozen=True)
class KLoopRead:
    """`for (v = start; v <condition> a*K + b; v += step)` around the gemm, K the k-tile count."""
    line: int
    variable: str
    start: int
    condition: str                  # <, <= or != (the kind's K_CONDITIONS)
    bound: tuple[int, int]          # (a, b): the bound a*K + b
    step: int
    direct: bool                    # every fill's copies take k-tile `variable` itself
    # where direct: each operand's k-tile at the gemm of pass v, as v + offset (0: its copies come before the gemm
    # in the pass, -1: after it); empty where the order is not read (`order_not_read` says why)
    reads: tuple[tuple[str, int], ...] = ()
    order_not_read: str = ""


class LoopNotRead(Exception):
    """Why the k-tile loop is not read (stated as an assumption by the caller)."""


@dataclass(frozen=True)
class KSource:
    """A global partition the fills read: its name, the mode its copies index by k-tile, their indices."""
    partition: str
    k_mode: int
    k_tiles: tuple[str, ...]
    operand: str = ""                          # a or b
    copied_at: tuple[tuple[int, int], ...] = ()   # the (line, column) of the copy taking each k-tile


# a local's initializer as written and the line it is declared at, or None (`Declarations.value`'s reading)
Initializer = Callable[[str, int], "tuple[str, int] | None"]


def _integer(text: str) -> int | None:
    text = text.replace(" ", "")
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return int(re.sub(r"[uUlL]+$", "", text)) if _INT.match(text) else None


def _terms(text: str) -> list[tuple[int, str]]:
    """`text` split at its top-level + and - into (sign, term)."""
    out: list[tuple[int, str]] = []
    depth, sign, start = 0, 1, 0
    for i, ch in enumerate(text):
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch in "+-" and depth == 0 and i > start and text[i - 1] not in "+-*/(<=!":
            out.append((sign, text[start:i].strip()))
            sign, start = (1 if ch == "+" else -1), i + 1
    out.append((sign, text[start:].strip()))
    return out


def _modified(name: str, statements: Iterable[Statement], declared: int | None = None) -> Statement | None:
    """A statement that assigns, increments or decrements `name` (but its declaration, at line `declared`)."""
    n = re.escape(name)
    writes = re.compile(rf"(?<![\w.]){n}\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|(?<![\w.]){n}\s*(?:\+\+|--)|"
                        rf"(?:\+\+|--)\s*{n}\b")
    for st in statements:
        if st.line == declared and (m := _INIT.match(st.text)) is not None and m.group(1) == name:
            continue
        if writes.search(st.text):
            return st
    return None


def _bound(text: str, line: int, sources: list[KSource], initializer: Initializer, statements: list[Statement],
           depth: int = 0) -> tuple[int, int]:
    """The bound `text` as (a, b): a*K + b (a local followed back to its initializer, where nothing changes it)."""
    a = b = 0
    for sign, term in _terms(without_casts(" ".join(text.split()))):
        while term.startswith("(") and term.endswith(")"):
            term = term[1:-1].strip()
        value = _integer(term)
        if value is not None:
            b += sign * value
            continue
        m = _SIZE.match(term)
        if m is not None:
            mode, name = int(m.group(1)), m.group(2)
            if not any(s.partition == name and s.k_mode == mode for s in sources):
                raise LoopNotRead(f"its bound's {term} is not the k-tile extent of a global partition the fills "
                                  f"index by k-tile ({', '.join(f'size<{s.k_mode}>({s.partition})' for s in sources)})")
            a += sign
            continue
        if _IDENT.fullmatch(term) and depth < MAX_ALIASES:
            found = initializer(term, line)
            if found is not None and found[0]:
                changed = _modified(term, statements, found[1])
                if changed is not None:
                    raise LoopNotRead(f"its bound's {term} is changed at line {changed.line} ({changed.text[:60]})")
                ta, tb = _bound(found[0], found[1], sources, initializer, statements, depth + 1)
                a, b = a + sign * ta, b + sign * tb
                continue
        raise LoopNotRead(f"its bound's term {term} is neither an integer nor a k-tile count (size<mode>(partition)) "
                          "the reader reads")
    return a, b


def _step(text: str, variable: str) -> int:
    v = re.escape(variable)
    text = text.replace(" ", "")
    if re.fullmatch(rf"\+\+{v}|{v}\+\+", text):
        return 1
    if re.fullmatch(rf"--{v}|{v}--", text):
        return -1
    m = re.fullmatch(rf"{v}(\+=|-=)(.+)", text) or re.fullmatch(rf"{v}=({v}[+-])(.+)", text)
    if m is not None:
        value = _integer(m.group(2))
        if value is not None:
            return value if "+" in m.group(1) else -value
    raise LoopNotRead(f"its step {text} is not ++{variable}, {variable}++, {variable} += n or their decrements")


def _names(texts: Iterable[str]) -> set[str]:
    return {w for t in texts for w in _IDENT.findall(t)}


def _reads(loop: Loop, at: tuple[int, int], sources: list[KSource], blocks: list[Block]
           ) -> tuple[tuple[tuple[str, int], ...], str]:
    """Each operand's k-tile at the gemm (at `at`) of pass v as v + offset, from where the copies of k-tile v stand
    in the loop's body against the gemm: all before it 0, all after it -1 (the tile still holds the pass before's).
    Read where the copies stand in the body itself (or a plain block) and the gemm there or in a loop of it;
    otherwise ((), why)."""
    inner = [b for b in blocks if b.function == loop.function and loop.holds(*b.body[0])]

    def outermost(pos: tuple[int, int]) -> Block | None:
        holding = [b for b in inner if b.holds(*pos)]
        return min(holding, key=lambda b: b.body[0]) if holding else None
    gemm_in = outermost(at)
    if gemm_in is not None and gemm_in.keyword not in UNCONDITIONAL + LOOPS:
        return (), f"the gemm is under the `{gemm_in.keyword}` at line {gemm_in.body[0][0]}"
    gemm_at = gemm_in.body[0] if gemm_in is not None else at
    offsets: dict[str, set[int]] = {}
    for source in sources:
        if len(source.copied_at) != len(source.k_tiles):
            return (), "the copies' places are not known"
        for pos in source.copied_at:
            held = outermost(pos)
            if held is not None and held.keyword not in UNCONDITIONAL or not loop.holds(*pos):
                return (), f"the copy at line {pos[0]} is not in the loop's body itself"
            offsets.setdefault(source.operand, set()).add(0 if pos < gemm_at else -1)
    if any(len(o) != 1 for o in offsets.values()):
        return (), "an operand's copies stand on both sides of the gemm"
    return tuple((operand, next(iter(o))) for operand, o in sorted(offsets.items())), ""


def read_k_loop(loops: list[Loop], function: str, at: tuple[int, int], sources: list[KSource],
                initializer: Initializer, statements: list[Statement], blocks: list[Block] | None = None
                ) -> KLoopRead:
    """The loop around the statement at `at` (the gemm) that runs the k-tiles `sources` copy (LoopNotRead: why
    not); `statements`: the function's.  A loop whose body may leave a pass (break, continue, return, goto) or
    changes its variable, or whose bound's locals change, is not read."""
    around = sorted((lp for lp in loops if lp.function == function and lp.holds(*at)), key=lambda lp: lp.body[0])
    expressions = [k for s in sources for k in s.k_tiles]
    named = _names(expressions)
    for name in list(named):                       # one local between: k_tile_next = f(k_tile)
        found = initializer(name, at[0])
        if found is not None:
            named |= _names([found[0]])
    if not around:
        raise LoopNotRead("the gemm is in no braced loop (its k-tiles "
                          f"{', '.join(dict.fromkeys(expressions))} as written)")
    runs = []
    for loop in around:
        head = loop.clauses[0] if loop.keyword == "for" and len(loop.clauses) == 3 else ""
        m = _INIT.match(head)
        if m is not None and m.group(1) in named:
            runs.append((loop, m))
    if not runs:
        whiles = [lp for lp in around if lp.keyword == "while"]
        ks = ", ".join(dict.fromkeys(expressions))
        raise LoopNotRead(f"the loop around the gemm is a while loop (line {whiles[-1].line}), not a for loop over "
                          f"the k-tiles its fills copy ({ks})" if whiles else
                          f"no for loop around the gemm sets the k-tiles its fills copy ({ks})")
    loop, m = runs[-1]
    variable = m.group(1)
    start = _integer(m.group(2))
    if start is None:
        raise LoopNotRead(f"the loop at line {loop.line} starts {variable} at {m.group(2)}, not at an integer")
    condition = loop.clauses[1].strip()
    v = re.escape(variable)
    c = re.fullmatch(rf"{v}\s*(<=|<|!=)\s*(.+)", condition)
    if c is not None:
        op, bound_text = c.group(1), c.group(2)
    else:
        c = re.fullmatch(rf"(.+?)\s*(>=|>|!=)\s*{v}", condition)
        if c is None:
            raise LoopNotRead(f"the loop at line {loop.line} runs while {condition}: not {variable} < bound "
                              "(<=, != or the bound first)")
        op, bound_text = MIRRORED[c.group(2)], c.group(1)
    body = [st for st in statements if loop.holds(st.line, st.column)]
    leaves = next((st for st in body if LEAVES.search(st.text)), None)
    if leaves is not None:
        raise LoopNotRead(f"the loop at line {loop.line} may leave a pass at line {leaves.line} ({leaves.text[:60]})")
    changed = _modified(variable, body)
    if changed is not None:
        raise LoopNotRead(f"the loop's {variable} is changed in its body at line {changed.line} "
                          f"({changed.text[:60]})")
    bound = _bound(bound_text, loop.line, sources, initializer, statements)
    step = _step(loop.clauses[2], variable)
    direct = all(k.replace(" ", "") == variable for k in expressions)
    reads, why = _reads(loop, at, sources, blocks or []) if direct else ((), "")
    return KLoopRead(loop.line, variable, start, op, bound, step, direct, reads, why)


__all__ = ["KLoopRead", "KSource", "LoopNotRead", "read_k_loop"]
