"""`family:` (format version 2): one check for every value of its parameters, proved as one check.

    checks:
      mainloop_a:
        family:
          BM: {multiple_of: 32, min: 32}      # no max: every value whose tile fits in a block's shared memory
          stages: [2, 8]                      # the integers 2..8
        mma: SM80_16x8x16_F32F16F16F32_TN
        ...
        smem: "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), ({BM},64,{stages}))"

A parameter's domain is `[lo, hi]` (every integer between, both included), `{values: [...]}`, or
`{min: a, max: b, multiple_of: m}` (max optional).  `{expr}` in a string value is replaced, member by member,
by the value of an integer expression over the parameters (`{BM}`, `{BM*p}`, `{(BM+8)//2}`).  A member is one
assignment of the parameters; the members are every assignment of the parameters' domains, each proved as the
check it is (a member whose buffer exceeds shared memory is judged as that check would be: a descriptor check
refutes it, theorem 13).  A parameter without `max` takes its values upward from `min` while its member (the
other parameters at their first values) has a shared-memory tile that fits in the most shared memory a block may
use on any architecture the tool models (hardware/shared_memory.py): no larger value makes a kernel; a parameter
whose values never outgrow the shared memory needs a `max`.

This module reads the parameters, writes each member's check body and orders the members (by the bytes of
shared memory their tile spans, then by the parameters in the order written); the engine proves them
(verifier/engine/family.py).
"""
from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..hardware.shared_memory import BLOCK_SHARED_BYTES
from .model import CheckKind, CheckSpec, Loc, SpecError
from .sweep import rewritten
from .vocabulary import FAMILY_KEY

MAX_FAMILY_MEMBERS = 4096        # members one family may have (each is proved)
MAX_PARAMETER_VALUES = 4096      # values one parameter may take
MAX_PARAMETERS = 8
MAX_OPEN_VALUES = 1024           # values a parameter without max is tried at before it is told to take one
# the most shared memory a block may use on any architecture modelled: no member beyond it is a kernel anywhere
SHARED_BYTES = max(BLOCK_SHARED_BYTES.values())
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_DOMAIN_KEYS = ("min", "max", "multiple_of", "values")


@dataclass(frozen=True)
class Parameter:
    """A family parameter: its name, the values it takes (None: from `start` upward while members fit)."""
    name: str
    values: tuple[int, ...] | None
    start: int = 0
    step: int = 1
    loc: Loc | None = None

    def domain_text(self) -> str:
        if self.values is not None:
            v = self.values
            if len(v) > 2 and all(b - a == v[1] - v[0] for a, b in zip(v, v[1:])):
                step = v[1] - v[0]
                return f"{self.name} in {v[0]}..{v[-1]}" + (f" step {step}" if step != 1 else "")
            return f"{self.name} in {{{', '.join(map(str, v))}}}"
        return f"{self.name} >= {self.start}" + (f", a multiple of {self.step}" if self.step != 1 else "")


Point = dict[str, int]


def point_text(point: Point) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


@dataclass
class Member:
    """One member: its parameters' values, its check as built, the bytes of shared memory its tile spans."""
    point: Point
    check: CheckSpec
    shared_bytes: int


@dataclass(kw_only=True)
class FamilyCheck(CheckSpec):
    """A check proved for every member of its parameters' domain (verifier/engine/family.py)."""
    kind: ClassVar[str] = CheckKind.FAMILY
    parameters: list[Parameter] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)      # smallest first
    member_kind: str = ""
    notes: list[str] = field(default_factory=list)          # how each parameter without a max was bounded

    def domain_text(self) -> str:
        """The members' domain as the report states it: the parameters' values actually taken."""
        parts = []
        for p in self.parameters:
            taken = sorted({m.point[p.name] for m in self.members})
            shown = Parameter(p.name, tuple(taken)) if taken else p
            parts.append(shown.domain_text())
        return "; ".join(parts)

    def summary(self) -> str:
        first = self.members[0].check.summary() if self.members else ""
        return f"family of {len(self.members)} members ({self.domain_text()}): {first}"


def member_name(name: str, point: Point) -> str:
    return f"{name}[{point_text(point)}]"


# --- parameters --------------------------------------------------------------------------------------

def _int(x: Any, at: Loc, what: str) -> int:
    if not isinstance(x, int) or isinstance(x, bool):
        raise SpecError(at, f"{what} must be an integer, not {x!r}")
    if abs(x) > MAX_VALUE:           # as a placeholder's value may reach (a domain is counted before it is listed)
        raise SpecError(at, f"{what} is {x}, beyond {MAX_VALUE}")
    return x


def read_parameters(f: Any, body: CommentedMap, name: str) -> list[Parameter]:
    """The family's parameters and their domains, validated (errors at the parameter's line)."""
    table, where = body[FAMILY_KEY], f.value(body, FAMILY_KEY)
    if not isinstance(table, CommentedMap) or not table:
        raise SpecError(where, f"'{FAMILY_KEY}' of check '{name}' must be a mapping of parameters to their domains "
                               "(e.g. BM: {multiple_of: 32, min: 32}, stages: [2, 8])")
    if len(table) > MAX_PARAMETERS:
        raise SpecError(where, f"a family has at most {MAX_PARAMETERS} parameters")
    out = []
    for var, dom in table.items():
        at = f.key(table, var)
        if not isinstance(var, str) or not _NAME.fullmatch(var):
            raise SpecError(at, "a family parameter is a name of letters, digits and _ (not starting with a digit)")
        if var in body:
            raise SpecError(at, f"family parameter '{var}' is also a key of the check; give it another name")
        vat = f.value(table, var)
        what = f"family parameter '{var}'"
        if isinstance(dom, CommentedSeq):
            if len(dom) != 2:
                raise SpecError(vat, f"{what}: a list is a range [lo, hi] (both included); give other values as "
                                     "{values: [...]}")
            lo, hi = (_int(dom[i], f.item(dom, i), f"{what}'s bound") for i in range(2))
            if hi < lo:
                raise SpecError(vat, f"{what}: the range [{lo}, {hi}] is empty")
            if hi - lo >= MAX_PARAMETER_VALUES:
                raise SpecError(vat, f"{what} takes {hi - lo + 1} values; at most {MAX_PARAMETER_VALUES}")
            out.append(Parameter(var, tuple(range(lo, hi + 1)), loc=at))
            continue
        if not isinstance(dom, CommentedMap):
            raise SpecError(vat, f"{what} must be a range [lo, hi], {{values: [...]}} or {{min: ..., max: ..., "
                                 "multiple_of: ...}}")
        unknown = [k for k in dom if k not in _DOMAIN_KEYS]
        if unknown:
            raise SpecError(f.key(dom, unknown[0]), f"{what}: unknown key {unknown[0]!r} (a domain has "
                                                    f"{', '.join(_DOMAIN_KEYS)})")
        if "values" in dom:
            if len(dom) > 1:
                raise SpecError(vat, f"{what}: 'values' lists the values; it takes no other key")
            vals = dom["values"]
            if not isinstance(vals, CommentedSeq) or not vals:
                raise SpecError(f.value(dom, "values"), f"{what}: 'values' must be a non-empty list of integers")
            taken = tuple(_int(v, f.item(vals, i), f"{what}'s value") for i, v in enumerate(vals))
            if len(set(taken)) != len(taken):
                raise SpecError(f.value(dom, "values"), f"{what} lists a value twice")
            if len(taken) > MAX_PARAMETER_VALUES:
                raise SpecError(f.value(dom, "values"), f"{what}: at most {MAX_PARAMETER_VALUES} values")
            out.append(Parameter(var, tuple(sorted(taken)), loc=at))
            continue
        if "min" not in dom:
            raise SpecError(vat, f"{what} needs 'min' (its smallest value)")
        lo = _int(dom["min"], f.value(dom, "min"), f"{what}'s min")
        step = _int(dom.get("multiple_of", 1), f.value(dom, "multiple_of") if "multiple_of" in dom else vat,
                    f"{what}'s multiple_of")
        if step < 1:
            raise SpecError(f.value(dom, "multiple_of"), f"{what}: multiple_of must be at least 1")
        start = -(-lo // step) * step
        if "max" in dom:
            hi = _int(dom["max"], f.value(dom, "max"), f"{what}'s max")
            span = range(start, hi + 1, step)          # counted before it is listed
            if not span:
                raise SpecError(vat, f"{what} takes no value (no multiple of {step} in [{lo}, {hi}])")
            if len(span) > MAX_PARAMETER_VALUES:
                raise SpecError(vat, f"{what} takes {len(span)} values; at most {MAX_PARAMETER_VALUES}")
            out.append(Parameter(var, tuple(span), loc=at))
        else:
            out.append(Parameter(var, None, start, step, at))
    return out


# --- {expr} -----------------------------------------------------------------------------------------

_OPERATORS: dict[type, Callable[[int, int], int]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b}
MAX_VALUE = 1 << 40


class ExpressionError(ValueError):
    pass


def _value(node: ast.AST, point: Point) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in point:
            raise ExpressionError(f"names {node.id!r}, which is not a parameter of the family "
                                  f"({', '.join(point)})")
        return point[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand, point)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        a, b = _value(node.left, point), _value(node.right, point)
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and b == 0:
            raise ExpressionError("divides by zero")
        r = _OPERATORS[type(node.op)](a, b)
        if abs(r) > MAX_VALUE:
            raise ExpressionError(f"reaches {r}, beyond {MAX_VALUE}")
        return r
    raise ExpressionError("is not an integer expression of the parameters (+, -, *, //, %, parentheses)")


MAX_EXPRESSION = 200             # characters of one {expr}: deeper nesting than that is no tile arithmetic


def evaluate(text: str, point: Point) -> int:
    if len(text) > MAX_EXPRESSION:
        raise ExpressionError(f"has {len(text)} characters; an expression has at most {MAX_EXPRESSION}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):     # ValueError: an integer literal beyond Python's digit limit
        raise ExpressionError("is not an integer expression of the parameters") from None
    return _value(tree.body, point)


def mentions(text: str, names: set[str]) -> set[str]:
    """The parameters a string's {expr} placeholders name."""
    out: set[str] = set()
    for m in _EXPRESSION.finditer(text):
        out |= set(_NAME.findall(m.group(1))) & names
    return out


def substitute(text: str, point: Point) -> str:
    """Each `{expr}` over the parameters replaced by its value; a placeholder naming no parameter stays."""
    def one(m: re.Match[str]) -> str:
        if not set(_NAME.findall(m.group(1))) & set(point):
            return m.group(0)
        return str(evaluate(m.group(1), point))
    return _EXPRESSION.sub(one, text)


# --- members -----------------------------------------------------------------------------------------

def member_body(body: CommentedMap, point: Point) -> CommentedMap:
    """The check body of one member: `family` removed, every string value's placeholders replaced."""
    return rewritten(body, FAMILY_KEY, lambda text: substitute(text, point))


SharedBytes = Callable[[CheckSpec], "int | None"]


def read_family(f: Any, name: str, body: CommentedMap, loc: Loc, build: Callable[[str, CommentedMap], CheckSpec],
                shared_bytes: SharedBytes) -> FamilyCheck:
    """The family a `family:` check stands for, every member built (`build`: the loader's check reader) and
    sized (`shared_bytes`: the bytes of shared memory a member's tile spans; None for a check without one)."""
    params = read_parameters(f, body, name)
    names = {p.name for p in params}
    used: set[str] = set()
    for k, v in body.items():
        if isinstance(v, str):
            used |= mentions(v, names)
            for m in _EXPRESSION.finditer(v):
                if set(_NAME.findall(m.group(1))) & names:
                    try:
                        evaluate(m.group(1), {n: 1 for n in names})
                    except ExpressionError as e:
                        if "divides by zero" not in str(e):
                            raise SpecError(f.value(body, k), f"'{k}' of check '{name}': {{{m.group(1)}}} {e}") \
                                from None
    for p in params:
        if p.name not in used:
            raise SpecError(p.loc, f"family parameter '{p.name}' is not used as {{{p.name}}} in the check")
    cache: dict[tuple[int, ...], Member] = {}

    def member(point: Point) -> Member:
        key = tuple(point.values())
        if key not in cache:
            try:
                check = build(member_name(name, point), member_body(body, point))
            except ExpressionError as e:
                raise SpecError(loc, f"check '{name}', member {point_text(point)}: a placeholder {e}") from None
            except SpecError as e:
                raise SpecError(e.loc or loc, f"{e.message} (family '{name}', member {point_text(point)})") from None
            if isinstance(check, FamilyCheck):
                raise SpecError(loc, f"check '{name}': a family's member cannot be a family")
            nbytes = shared_bytes(check)
            if nbytes is None:
                raise SpecError(f.key(body, FAMILY_KEY), f"check '{name}' is a {check.kind} check: a family needs "
                                                         "checks with a shared-memory tile (tiled, or operands read "
                                                         "through a descriptor)")
            cache[key] = Member(dict(point), check, nbytes)
        return cache[key]

    first = {p.name: (p.values[0] if p.values is not None else p.start) for p in params}
    domains: list[tuple[int, ...]] = []
    notes: list[str] = []
    for p in params:
        if p.values is not None:
            domains.append(p.values)
            continue
        values, v = [], p.start
        while True:
            if member({**first, p.name: v}).shared_bytes > SHARED_BYTES:
                break
            values.append(v)
            if len(values) >= MAX_OPEN_VALUES:
                raise SpecError(p.loc, f"family parameter '{p.name}' has no max and {MAX_OPEN_VALUES} of its "
                                       "values fit in a block's shared memory: give it a max")
            v += p.step
        if not values:
            raise SpecError(p.loc, f"family parameter '{p.name}': its first member ({point_text(first)}) needs "
                                   f"{member(first).shared_bytes} bytes of shared memory, more than a block has "
                                   f"({SHARED_BYTES}): the family has no member")
        domains.append(tuple(values))
        others = {k: x for k, x in first.items() if k != p.name}
        notes.append(f"{p.name} has no max: it takes {p.domain_text()} up to {values[-1]}, the last value whose "
                     f"member{f' ({point_text(others)})' if others else ''} fits in a block's shared memory "
                     f"({p.name}={v} needs {member({**first, p.name: v}).shared_bytes} bytes)")
    total = 1
    for d in domains:
        total *= len(d)
    if total > MAX_FAMILY_MEMBERS:
        raise SpecError(f.value(body, FAMILY_KEY), f"family '{name}' has {total} members; at most "
                                                   f"{MAX_FAMILY_MEMBERS} are supported (narrow its domains)")
    members = [member(dict(zip((p.name for p in params), combo))) for combo in itertools.product(*domains)]
    members.sort(key=lambda m: (m.shared_bytes, *m.point.values()))
    common = members[0].check
    return FamilyCheck(name=name, loc=loc, expect=common.expect, description=common.description,
                       mma=common.mma, operand=common.operand, copy=common.copy, value_type=common.value_type,
                       parameters=params, members=members, member_kind=common.kind, notes=notes)


__all__ = ["FAMILY_KEY", "FamilyCheck", "Member", "Parameter", "SHARED_BYTES", "member_name", "point_text",
           "read_family", "substitute"]
