"""Exhaustive enumeration in plain Python: an obligation compiled into one nest of loops over its variables.

numpy evaluates a domain of millions of points in milliseconds, but importing it costs about as much as
importing Z3, before its first point.  Most obligations have a few thousand points at most (the seed spec's
largest has 8,192), and there a loop nest in plain Python decides them sooner than numpy can be imported:
`benchmarks/start_phases.py`.  Every sub-term is computed in the outermost loop whose variables it depends on
(a sub-term of the thread alone once per thread, not once per point), so the innermost loop evaluates only
what depends on the innermost variable.  Arithmetic is on Python integers: exact, as `compile_py`'s.

The nest visits the domain in C order of the variables, as the numpy evaluator does, so both find the same
first failing point; `decide.enumerate_obligation` chooses between them (its PYTHON_POINTS rule).
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Sequence, cast

from .backends import PYTHON_OPERATORS, infix
from .expr import Node, NodeKey, Op, Var, fold, postorder

# Python's compiler refuses more than 20 nested blocks; a nest this deep or deeper is left to numpy.
MAX_DEPTH = 16
MAX_INLINE = 16        # sub-terms written inside one another at most this deep (the parser allows ~200 parentheses)


def _nest(roots: Sequence[Node], order: Sequence[Var], innermost: Callable[[list[str]], list[str]]
          ) -> Callable[..., Any]:
    """def _f(_out): loops over `order` (outermost first), each sub-term of `roots` computed in the loop of the
    last variable it depends on, and `innermost(root texts)` (statements) run at every point.

    A sum's terms are added up loop by loop (exact on Python integers), so a loop adds only its own terms; a
    sub-term used once, in its own loop, is written inside its user rather than named (fewer stores and loads
    per point); a variable of one value is 0 (no loop)."""
    if len(order) > MAX_DEPTH:
        raise ValueError(f"{len(order)} variables: deeper than a loop nest may be ({MAX_DEPTH})")
    position = {v.name: i for i, v in enumerate(order)}
    level: dict[NodeKey, int] = {}        # node key -> the loop it is computed in (0: before every loop)
    uses: dict[NodeKey, int] = {}         # node key -> how many parents (and roots) use it
    user_level: dict[NodeKey, int] = {}   # node key -> the loop of (one of) its users
    nodes = list(postorder(roots))
    for node in nodes:
        if node.op is Op.VAR:
            level[node._key] = position[cast(Var, node).name] + 1   # a VAR node is a Var
        else:
            level[node._key] = max((level[c._key] for c in node.args), default=0)
        for c in node.args:
            uses[c._key] = uses.get(c._key, 0) + 1
            user_level[c._key] = level[node._key]
    for r in roots:
        uses[r._key] = uses.get(r._key, 0) + 2     # a root is named: the innermost statements read it
    lines: list[list[str]] = [[] for _ in range(len(order) + 1)]
    count = itertools.count()
    nesting: dict[NodeKey, int] = {}      # node key -> parentheses its inlined text nests (absent: named)

    def temporary(at: int, text: str) -> str:
        """A temporary holding `text`, computed in loop `at`."""
        temp = f"_t{next(count)}"
        lines[at].append(f"{temp} = {text}")
        return temp

    def name(node: Node, at: int, text: str) -> str:
        """A temporary for `text` -- or the text itself, inlined into its one user when that user is in the same
        loop (never nesting deeper than MAX_INLINE: Python's parser limits nested parentheses)."""
        inner = 1 + max((nesting.get(c._key, 0) for c in node.args), default=0)
        if (at == level[node._key] and uses.get(node._key) == 1 and user_level[node._key] == at
                and inner < MAX_INLINE):
            nesting[node._key] = inner
            return text
        return temporary(at, text)

    def split_sum(node: Node, terms: list[str]) -> str:
        levels = [level[c._key] for c in node.args]
        partial = ""
        for at in sorted(set(levels)):
            mine = [t for t, lv in zip(terms, levels) if lv == at]
            text = infix(" + ", ([partial] if partial else []) + mine, "_sum")
            partial = name(node, at, text) if at == level[node._key] else temporary(at, text)
        return partial

    table = dict(PYTHON_OPERATORS)
    table[Op.VAR] = lambda n, a: f"_a{position[cast(Var, n).name]}"
    table[Op.ADD] = split_sum

    def bind(node: Node, text: str) -> str:
        if node.op is Op.ADD:          # named (or inlined) by split_sum already
            return text
        return name(node, level[node._key], text)

    results = fold(roots, table, bind, nodes)
    src = ["def _f(_out):"]
    for i, v in enumerate(order):
        src += ["    " * (i + 1) + line for line in lines[i]]
        if v.size > 1:
            src.append("    " * (i + 1) + f"for _a{i} in range({v.size}):")
        else:                          # the block of a constant condition compiles to nothing
            src += ["    " * (i + 1) + f"_a{i} = 0", "    " * (i + 1) + "if True:"]
    indent = "    " * (len(order) + 1)
    src += [indent + line for line in lines[len(order)]]
    src += [indent + line for line in innermost([results[r._key] for r in roots])]
    namespace: dict[str, Any] = {"_sum": sum, "_all": all, "_any": any, "_reduce": functools.reduce}
    exec(compile("\n".join(src), "<loop nest>", "exec"), namespace)  # noqa: S102 - generated from our own tree
    return cast(Callable[..., Any], namespace["_f"])     # the `def _f` just compiled


def failing_points(premise: Node, claim: Node, order: Sequence[Var]) -> list[tuple[int, ...]]:
    """Every point of the domain of `order` where the premise holds and the claim does not, in C order."""
    point = "(" + "".join(f"_a{i}, " for i in range(len(order))) + ")"
    premise_holds = "" if premise.op is Op.TRUE else "{} and "
    fn = _nest([premise, claim], order, lambda r: [f"if {premise_holds.format(r[0])}not {r[1]}:",
                                                   f"    _out({point})"])
    out: list[tuple[int, ...]] = []
    fn(out.append)
    return out


def values(value: Node, order: Sequence[Var]) -> list[int]:
    """`value` at every point of the domain of `order`, in C order."""
    fn = _nest([value], order, lambda r: [f"_out({r[0]})"])
    out: list[int] = []
    fn(out.append)
    return out
