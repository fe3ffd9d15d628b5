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

from .c_expression import ExpressionNotRead, Tree, integer, name, names, op, parse, render, substitute
from .instrument import Block, Loop, Statement
from .thread_gemm_read import TILE, FillEvent, KLoopRead
from .thread_slices import without_casts
from ..kinds.thread_gemm.pass_reads import K_NAME     # the k-tile count in a pass's expression

MAX_ALIASES = 8                   # locals a bound is followed back through
_IDENT = re.compile(r"[A-Za-z_]\w*")
_INIT = re.compile(r"^(?:[A-Za-z_][\w:<>\s]*?\s+)?([A-Za-z_]\w*)\s*=\s*(.+)$")
_INT = re.compile(r"^[+-]?\d+[uUlL]*$")
_SIZE = re.compile(r"^(?:cute\s*::\s*)?size\s*<\s*(\d+)\s*>\s*\(\s*([A-Za-z_]\w*)\s*\)$")
MIRRORED = {">": "<", ">=": "<=", "!=": "!="}
UNCONDITIONAL = ("",)                  # blocks whose statements run whenever the block is reached
LOOPS = ("for", "while", "do")
LEAVES = re.compile(r"\b(?:break|continue|return|goto|throw)\b")    # statements that end a pass early


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


_PLACE = "__pass_start_"           # a pass-start value, before it is replaced (never written out)
_K_TILES = "__k_tiles__"           # size<r>(P) of a k-tile mode, before it is replaced by K
_SIZE_IN = re.compile(r"(?:cute\s*::\s*)?size\s*<\s*(\d+)\s*>\s*\(\s*([A-Za-z_]\w*)\s*\)")


def _pass_reads(loop: Loop, variable: str, start: int, step: int, at: tuple[int, int],
                events: dict[str, tuple[FillEvent, ...]], blocks: list[Block], statements: list[Statement],
                sources: list[KSource], initializer: Initializer) -> tuple[tuple[tuple[str, str], ...], str]:
    """Each operand's k-tile in its shared tile at the gemm (at `at`) of pass `variable`, as an expression of the
    variable and K: the fills' copies simulated in the kernel's order -- the prologue's before the loop, then one
    pass of the body, each pass starting from where the pass before ended (the first from the prologue; a tile no
    copy wrote holds -1, no k-tile).  Read where every copy stands in the function or the loop's body itself (or a
    plain block), the gemm there or in a loop of it, the k-tile indices integer expressions of the variable, K and
    locals made of them; otherwise ((), why)."""
    if variable == K_NAME:
        return (), f"the loop's variable is named {K_NAME}"
    inner = [b for b in blocks if b.function == loop.function and loop.holds(*b.body[0])]

    def outermost(pos: tuple[int, int]) -> Block | None:
        holding = [b for b in inner if b.holds(*pos)]
        return min(holding, key=lambda b: b.body[0]) if holding else None
    gemm_in = outermost(at)
    if gemm_in is not None and gemm_in.keyword not in UNCONDITIONAL + LOOPS:
        return (), f"the gemm is under the `{gemm_in.keyword}` at line {gemm_in.body[0][0]}"
    gemm_at = gemm_in.body[0] if gemm_in is not None else at
    v = name(variable)

    def value_of(local: str, pos: tuple[int, int], depth: int) -> Tree:
        if local == variable:
            if not loop.holds(*pos):
                raise ExpressionNotRead(f"{local} is read outside its loop")
            return v
        found = initializer(local, pos[0])
        if found is None or not found[0] or depth >= MAX_ALIASES:
            raise ExpressionNotRead(f"{local} is no local the reader follows")
        changed = _modified(local, statements, found[1])
        if changed is not None:
            raise ExpressionNotRead(f"{local} is changed at line {changed.line} ({changed.text[:40]})")
        try:
            return expression(found[0], (found[1], 0), depth + 1)
        except ExpressionNotRead:
            a, b = _bound(local, found[1], sources, initializer, statements)     # a k-tile count (LoopNotRead)
            scaled = name(K_NAME) if a == 1 else op("*", integer(a), name(K_NAME))
            return scaled if b == 0 else op("+", scaled, integer(b))

    def k_tiles(m: re.Match[str]) -> str:
        if not any(s.partition == m.group(2) and s.k_mode == int(m.group(1)) for s in sources):
            raise ExpressionNotRead(f"{m.group(0)} is not the k-tile extent of a global partition the fills index")
        return _K_TILES

    def expression(text: str, pos: tuple[int, int], depth: int = 0) -> Tree:
        tree = parse(_SIZE_IN.sub(k_tiles, text))
        return substitute(tree, lambda n: name(K_NAME) if n == _K_TILES else value_of(n, pos, depth))

    reads: list[tuple[str, str]] = []
    try:
        for operand, evs in sorted(events.items()):
            targets = sorted({TILE} | {e.into for e in evs} | {e.registers for e in evs if e.registers})
            placed = {t: name(f"{_PLACE}{k}") for k, t in enumerate(targets)}
            prologue: dict[str, Tree] = {t: integer(-1) for t in targets}
            current = dict(placed)
            at_gemm: Tree | None = None
            for e in evs:
                if e.at > loop.body[1]:
                    continue                                  # after the last pass
                if e.at < loop.body[0]:
                    if any(not b.holds(*at) for b in blocks if b.function == loop.function and b.holds(*e.at)):
                        return (), f"the copy at line {e.at[0]} before the loop is under a condition or another loop"
                    prologue[e.into] = prologue[e.registers] if e.registers else expression(str(e.k_tile), e.at)
                    continue
                held = outermost(e.at)
                if held is not None and held.keyword not in UNCONDITIONAL:
                    return (), f"the copy at line {e.at[0]} is under the `{held.keyword}` at line {held.body[0][0]}"
                if at_gemm is None and gemm_at < e.at:
                    at_gemm = current[TILE]
                current[e.into] = current[e.registers] if e.registers else expression(str(e.k_tile), e.at)
            if at_gemm is None:
                at_gemm = current[TILE]
            carried = {t: current[t] for t in targets}
            read = _at_pass(at_gemm, variable, start, step, placed, prologue, carried)
            if any(n.startswith(_PLACE) for n in names(read)):
                return (), "the tile holds at the gemm a value carried through more than one pass"
            reads.append((operand, render(read)))
    except (ExpressionNotRead, LoopNotRead) as e:
        return (), f"a k-tile index: {e}"
    return tuple(reads), ""


def _at_pass(value: Tree, variable: str, start: int, step: int, placed: dict[str, Tree], prologue: dict[str, Tree],
             carried: dict[str, Tree]) -> Tree:
    """`value` (of the pass-start values `placed`) at pass `variable`: each pass-start value the prologue's at the
    first pass, else what the pass before carried (its variable one step back)."""
    v = name(variable)
    before = op("-", v, integer(step))
    start_of = {str(placed[t].value): op("ite", op("==", v, integer(start)), prologue[t],
                                         substitute(carried[t], lambda n: before if n == variable else None))
                for t in placed}
    return substitute(value, start_of.get)


def read_k_loop(loops: list[Loop], function: str, at: tuple[int, int], sources: list[KSource],
                initializer: Initializer, statements: list[Statement], blocks: list[Block] | None = None,
                events: dict[str, tuple[FillEvent, ...]] | None = None) -> KLoopRead:
    """The loop around the statement at `at` (the gemm) that runs the k-tiles `sources` copy (LoopNotRead: why
    not); `statements`: the function's.  A loop whose body may leave a pass (break, continue, return, goto) or
    changes its variable, or whose bound's locals change, is not read."""
    around = sorted((lp for lp in loops if lp.function == function and lp.holds(*at)), key=lambda lp: lp.body[0])
    expressions = [k for s in sources for k in s.k_tiles]
    named = _names(expressions)
    for local in list(named):                       # one local between: k_tile_next = f(k_tile)
        found = initializer(local, at[0])
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
    reads, why = _pass_reads(loop, variable, start, step, at, events or {}, blocks or [], statements, sources,
                             initializer)
    return KLoopRead(loop.line, variable, start, op, bound, step, direct, reads, why)


__all__ = ["KLoopRead", "KSource", "LoopNotRead", "read_k_loop"]
