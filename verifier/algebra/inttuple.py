"""Integer tuples as CuTe uses them: nested tuples of ints, static or dynamic.

CuTe distinguishes compile-time integers (`_4`, printed with an underscore) from run-time ones (`4`).
Almost everything is static; the distinction only matters where CuTe's own algorithms branch on it
(coalescing never merges dynamic strides, `compact_order` ranks dynamic strides last, swizzled
partitions decay to dynamic strides).  A plain Python `int` is static; `Dyn` is a run-time integer.
Arithmetic follows C++: division truncates toward zero and `%` takes the sign of the dividend.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterator, TypeGuard

# A CuTe integer tuple: an int leaf (a Python int is static, a Dyn is a run-time value) or a tuple of integer tuples,
# to any depth: int | tuple[IntTuple, ...].  Its nesting is data, not type: it comes from the parser, from a spec and
# from the algebra's own results, and every function here reads it as CuTe's do (is_tuple, rank, get<i>), trusting
# the congruence of shape, stride and coordinate that CuTe's templates check.  That precise union would make every
# such read a narrowing, in the algebra and in each caller, that the code's own invariants already guarantee; the
# nesting is therefore Any, named once here.  A leaf is always an `int`, and functions that return one say so.
IntTuple = Any
# An IntTuple whose leaves may also be `_` (CuTe's Underscore): a coordinate, a slice, a profile.
Coord = Any
# The top level of an IntTuple known to be a tuple (what `wrap` and `flatten_to_tuple` return).
Modes = tuple[IntTuple, ...]
# The same nesting with leaves of any kind: a tiler (layouts, integers and `_`), a guide, a profile.
Nested = Any


class AlgebraError(ValueError):
    """An input CuTe refuses (one of its static_asserts); `rule` is CuTe's message."""

    def __init__(self, rule: str, detail: str = "") -> None:
        self.rule = rule
        super().__init__(f"{rule}" + (f": {detail}" if detail else ""))


class PortLimit(ValueError):
    """An input this Python port of CuTe does not handle: an operand form, a tiler or a feature it does not model,
    or a bound of its own (a layout too large to enumerate).  CuTe itself may accept the input, so this is never
    CuTe's verdict and deliberately not an AlgebraError: a check that meets one is unsupported, not refused.
    `reason` says what the port lacks.  (A ValueError, as AlgebraError is, so that code which reports any bad
    input in words keeps doing so.)"""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        super().__init__(f"{reason}" + (f": {detail}" if detail else ""))


def tdiv(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero)."""
    if b == 0:
        raise AlgebraError("Division by zero")
    q = abs(int(a)) // abs(int(b))
    return q if (a >= 0) == (b >= 0) else -q


def tmod(a: int, b: int) -> int:
    """C++ remainder (sign of the dividend)."""
    return int(a) - tdiv(a, b) * int(b)


class Dyn(int):
    """A run-time (dynamic) integer: same value as an int, printed without `_`, never 'constant'.

    Its binary operators (set below, for both operand orders) keep the result run-time unless one of CuTe's
    static-zero rules applies; mypy sees int's, which is what they return (a Dyn is an int)."""

    def __repr__(self) -> str:
        return f"Dyn({int(self)})"

    __str__ = __repr__

    def __neg__(self) -> Dyn:
        return Dyn(-int(self))

    def __abs__(self) -> Dyn:
        return Dyn(abs(int(self)))

    def __invert__(self) -> Dyn:
        return Dyn(~int(self))


def _static_zero_rule(name: str, dyn_on_left: bool, other: int) -> int | None:
    """CuTe's mixed static/dynamic special cases: _0*d, d*_0, _0/d, _0%d, d%_1, _0&d are static."""
    if isinstance(other, Dyn):
        return None
    o = int(other)
    if name == "mul" and o == 0:
        return 0
    if name == "and" and o == 0:
        return 0
    if name in ("floordiv", "mod") and not dyn_on_left and o == 0:
        return 0
    if name == "mod" and dyn_on_left and o in (1, -1):
        return 0
    return None


# The operators below return an int, or NotImplemented for an operand that is not one: `object`, as a binary dunder's
# result is typed (typeshed's NotImplementedType derives from Any, so `int | NotImplementedType` would read as Any).
BinaryOp = Callable[[int, object], object]


def _wrap(name: str, f: Callable[[int, int], int]) -> BinaryOp:
    def op(a: int, b: object) -> object:
        if not isinstance(b, int):
            return NotImplemented
        z = _static_zero_rule(name, True, b)
        return z if z is not None else Dyn(f(int(a), int(b)))
    return op


def _rwrap(name: str, f: Callable[[int, int], int]) -> BinaryOp:
    def op(a: int, b: object) -> object:
        if not isinstance(b, int):
            return NotImplemented
        z = _static_zero_rule(name, False, b)
        return z if z is not None else Dyn(f(int(b), int(a)))
    return op


for _name, _fn in {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "floordiv": tdiv, "mod": tmod, "and": lambda x, y: x & y, "or": lambda x, y: x | y,
    "xor": lambda x, y: x ^ y, "lshift": lambda x, y: x << y, "rshift": lambda x, y: x >> y,
}.items():
    setattr(Dyn, f"__{_name}__", _wrap(_name, _fn))
    setattr(Dyn, f"__r{_name}__", _rwrap(_name, _fn))


def div(a: int, b: int) -> int:
    """C++ `/` on (possibly dynamic) integers."""
    if isinstance(a, Dyn) or isinstance(b, Dyn):
        return a // b  # Dyn's operators truncate like C++ and apply the static-zero rules
    return tdiv(a, b)


def mod(a: int, b: int) -> int:
    if isinstance(a, Dyn) or isinstance(b, Dyn):
        return a % b
    return tmod(a, b)


def is_tuple(x: object) -> TypeGuard[Modes]:
    return isinstance(x, tuple)


def is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def is_static(x: object) -> bool:
    if is_tuple(x):
        return all(is_static(e) for e in x)
    return not isinstance(x, Dyn)


def is_constant(v: int, x: object) -> bool:
    """CuTe's is_constant<v, X>: a static integer equal to v."""
    return is_int(x) and not isinstance(x, Dyn) and int(x) == v


def signum(x: int) -> int:
    r = (x > 0) - (x < 0)
    return Dyn(r) if isinstance(x, Dyn) else r


def imin(a: int, b: int) -> int:
    r = min(int(a), int(b))
    return Dyn(r) if isinstance(a, Dyn) or isinstance(b, Dyn) else r


# --- structure -------------------------------------------------------------------------------

def rank(t: IntTuple) -> int:
    return len(t) if is_tuple(t) else 1


def depth(t: IntTuple) -> int:
    if is_tuple(t):
        return 1 + max((depth(e) for e in t), default=0)
    return 0


def get(t: IntTuple, i: int) -> IntTuple:
    """get<i>(t); an integer is its own mode 0."""
    if is_tuple(t):
        return t[i]
    if i != 0:
        raise AlgebraError("Index out of range", f"mode {i} of an integer")
    return t


def flatten(t: IntTuple) -> IntTuple:
    """Flatten to a flat tuple (an integer stays an integer)."""
    if not is_tuple(t):
        return t
    return tuple(flatten_to_tuple(t))


def flatten_to_tuple(t: IntTuple) -> Modes:
    if not isinstance(t, tuple):
        return (t,)
    if not any(isinstance(e, tuple) for e in t):
        return t
    out: list[IntTuple] = []
    for e in t:
        out.extend(flatten_to_tuple(e))
    return tuple(out)


def wrap(t: IntTuple) -> Modes:
    return t if is_tuple(t) else (t,)


def unwrap(t: IntTuple) -> IntTuple:
    while is_tuple(t) and len(t) == 1:
        t = t[0]
    return t


def product(t: IntTuple) -> int:
    if is_tuple(t):
        r = 1
        for e in t:
            r = r * product(e)
        return r
    leaf: int = t      # not a tuple: an int leaf (see IntTuple)
    return leaf


def product_each(t: IntTuple) -> IntTuple:
    return tuple(product(e) for e in t) if is_tuple(t) else product(t)


def product_like(t: IntTuple, guide: IntTuple) -> IntTuple:
    """Products of `t` at the leaves of `guide`."""
    if is_tuple(guide):
        return tuple(product_like(a, g) for a, g in zip(t, guide))
    return product(t)


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """Same nesting (every Layout checks its shape against its stride: leaves are compared without a call)."""
    if not isinstance(a, tuple):
        return not isinstance(b, tuple)
    if not isinstance(b, tuple) or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, tuple) or isinstance(y, tuple):
            if not congruent(x, y):
                return False
    return True


def repeat_like(t: IntTuple, x: object) -> IntTuple:
    return tuple(repeat_like(e, x) for e in t) if is_tuple(t) else x


def transform_leaf(t: Nested, f: Callable[[Any], object]) -> Nested:
    return tuple(transform_leaf(e, f) for e in t) if is_tuple(t) else f(t)


def append_n(t: IntTuple, n: int, x: object) -> IntTuple:
    """append<N>(t, x): pad `t` to rank N with x (an integer of rank N==1 stays itself)."""
    if is_tuple(t):
        if len(t) == n:
            return t
        if len(t) > n:
            raise AlgebraError("append: rank larger than target", f"{len(t)} > {n}")
        return t + (x,) * (n - len(t))
    return t if n == 1 else (t,) + (x,) * (n - 1)


def append(t: IntTuple, x: object) -> Modes:
    return t + (x,) if is_tuple(t) else (t, x)


def prepend(t: IntTuple, x: object) -> Modes:
    return (x,) + t if is_tuple(t) else (x, t)


def replace_front(t: IntTuple, x: object) -> IntTuple:
    return (x,) + t[1:] if is_tuple(t) else x


def unflatten(flat: Modes, profile: IntTuple) -> IntTuple:
    """Rebuild the nesting of `profile` from a flat tuple."""
    it = iter(flat)

    def build(p: IntTuple) -> IntTuple:
        return tuple(build(e) for e in p) if is_tuple(p) else next(it)
    return build(profile)


# --- arithmetic on tuples (CuTe's int_tuple.hpp) -----------------------------------------------

def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    if is_tuple(a):
        if is_tuple(b):
            if len(a) < len(b):
                raise AlgebraError("Mismatched ranks", "ceil_div")
            bb = b + (1,) * (len(a) - len(b))
            return tuple(ceil_div(x, y) for x, y in zip(a, bb))
        out: list[IntTuple] = []
        rest = b
        for ai in a:
            out.append(ceil_div(ai, rest))
            rest = ceil_div(rest, ai)
        return tuple(out)
    if is_tuple(b):
        return ceil_div(a, product(b))
    return div(a + b - 1, b)


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                raise AlgebraError("Mismatched ranks", "shape_div")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out: list[IntTuple] = []
        rest = b
        for ai in a:
            out.append(shape_div(ai, rest))
            rest = shape_div(rest, ai)
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if is_static(a) and is_static(b) and tmod(a, b) != 0 and tmod(b, a) != 0:
        raise AlgebraError("Divisibility Condition", f"shape_div({a}, {b})")
    return div(a + b - 1, b)


def evenly_divides(a: IntTuple, b: IntTuple) -> bool:
    if is_tuple(b):
        if rank(b) > rank(a):
            return False
        return all(evenly_divides(get(a, i), bi) for i, bi in enumerate(b))
    return product(b) * product(ceil_div(a, b)) == product(a)


def inner_product(a: IntTuple, b: IntTuple) -> int:
    if is_tuple(a) and is_tuple(b):
        if len(a) != len(b):
            raise AlgebraError("Mismatched ranks", "inner_product")
        r = 0
        for x, y in zip(a, b):
            r = r + inner_product(x, y)
        return r
    leaf: int = a * b  # two int leaves (see IntTuple)
    return leaf


def filter_zeros(a: IntTuple, b: IntTuple) -> IntTuple:
    """Replace the elements of `b` paired with a static 0 in `a` by 1."""
    if is_tuple(a):
        return tuple(filter_zeros(x, y) for x, y in zip(a, b))
    if is_constant(0, a):
        return repeat_like(b, 1)
    return b


def coalesce_shape(shape: IntTuple) -> IntTuple:
    """coalesce(Shape): merge neighbours that are both static or both dynamic."""
    flat = flatten_to_tuple(shape)
    out = [flat[0]]
    for a in flat[1:]:
        if is_static(out[-1]) == is_static(a):
            out[-1] = out[-1] * a
        else:
            out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


# --- coordinates ------------------------------------------------------------------------------

class _Underscore:
    """CuTe's `_`: keep this mode whole."""

    _inst: ClassVar[_Underscore | None] = None

    def __new__(cls) -> _Underscore:
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self) -> str:
        return "_"


Underscore = _Underscore()


def is_underscore(x: object) -> TypeGuard[_Underscore]:
    return x is Underscore


def has_underscore(c: Coord) -> bool:
    if is_tuple(c):
        return any(has_underscore(e) for e in c)
    return is_underscore(c)


def compact_col_major(shape: IntTuple, current: IntTuple = 1) -> IntTuple:
    """Column-major (LayoutLeft) compact strides; size-1 modes get stride 0."""
    def rec(s: IntTuple, cur: int) -> tuple[IntTuple, int]:
        if is_tuple(s):
            out: list[IntTuple] = []
            for e in s:
                st, cur = rec(e, cur)
                out.append(st)
            return tuple(out), cur
        if is_constant(1, s):
            return 0, cur
        return cur, cur * s
    if is_tuple(current):
        return tuple(compact_col_major(s, c) for s, c in zip(shape, current))
    return rec(shape, current)[0]


def compact_row_major(shape: IntTuple, current: int = 1) -> IntTuple:
    def rec(s: IntTuple, cur: int) -> tuple[IntTuple, int]:
        if is_tuple(s):
            out: list[IntTuple] = []
            for e in reversed(s):
                st, cur = rec(e, cur)
                out.insert(0, st)
            return tuple(out), cur
        if is_constant(1, s):
            return 0, cur
        return cur, cur * s
    return rec(shape, current)[0]


def compact_order(shape: IntTuple, order: IntTuple) -> IntTuple:
    """Compact strides following `order` (smaller order = faster); dynamic orders rank after all static."""
    ref_shape = flatten_to_tuple(product_like(shape, order))
    flat_order = flatten_to_tuple(order)
    max_order = 0
    for o in flat_order:
        if is_static(o) and max_order < o:
            max_order = int(o)
    ref_order = tuple(int(o) if is_static(o) else max_order + 1 + i for i, o in enumerate(flat_order))
    new_order = unflatten(ref_order, order)

    def rec(s: IntTuple, o: IntTuple) -> IntTuple:
        if is_tuple(o):
            return tuple(rec(si, oi) for si, oi in zip(s, o))
        start = 1
        for rs, ro in zip(ref_shape, ref_order):
            if ro < o:
                start = start * rs
        return compact_col_major(s, start)
    return rec(shape, new_order)


def crd2idx(coord: Coord, shape: IntTuple, stride: IntTuple) -> int:
    """Coordinate (or 1-D index) -> offset; `_` counts as 0."""
    if is_underscore(coord):
        return 0
    if is_tuple(coord):
        if not is_tuple(shape):
            raise AlgebraError("Invalid parameters", f"tuple coordinate {coord} for shape {shape}")
        if len(coord) != len(shape) or len(shape) != len(stride):
            raise AlgebraError("Mismatched Ranks", f"coordinate {fmt_plain(coord)} for shape {fmt_plain(shape)}")
        r = 0
        for c, s, d in zip(coord, shape, stride):
            r = r + crd2idx(c, s, d)
        return r
    if is_tuple(shape):
        if len(shape) != len(stride):
            raise AlgebraError("Mismatched Ranks", "shape/stride")
        r, c = 0, coord
        for i, (s, d) in enumerate(zip(shape, stride)):
            if i == len(shape) - 1:
                r = r + crd2idx(c, s, d)
            else:
                p = product(s)
                r = r + crd2idx(mod(c, p), s, d)
                c = div(c, p)
        return r
    offset: int = coord * stride   # an int coordinate times an int stride (see IntTuple)
    return offset


def idx2crd(idx: IntTuple, shape: IntTuple) -> IntTuple:
    """1-D index -> natural coordinate of `shape` (colexicographic)."""
    if is_tuple(idx):
        return tuple(idx2crd(i, s) for i, s in zip(idx, shape))
    if not is_tuple(shape):
        return idx
    out: list[IntTuple] = []
    for i, s in enumerate(shape):
        p = product(s)
        if i == len(shape) - 1:
            out.append(idx2crd(idx, s))
        else:
            out.append(idx2crd(mod(idx, p), s))
            idx = div(idx, p)
    return tuple(out)


def crd2flat(coord: IntTuple, shape: IntTuple) -> int:
    """Coordinate -> colexicographic 1-D index within `shape`."""
    if not is_tuple(coord):
        index: int = coord     # an int leaf (see IntTuple)
        return index
    r = 0
    mult = 1
    for c, s in zip(coord, shape):
        r = r + crd2flat(c, s) * mult
        mult = mult * product(s)
    return r


def slice_tuple(crd: Coord, t: IntTuple) -> IntTuple:
    """slice(crd, t): keep the parts of `t` under `_` (nested kept parts are concatenated)."""
    if is_tuple(crd):
        if rank(t) != len(crd):
            raise AlgebraError("Mismatched Ranks", "slice")
        out: list[IntTuple] = []
        for c, e in zip(crd, wrap(t) if len(crd) == 1 else t):
            out.extend(_lift_slice(c, e))
        return tuple(out)
    if is_underscore(crd):
        return t
    return ()


def _lift_slice(c: Coord, e: IntTuple) -> list[IntTuple]:
    if is_tuple(c):
        out: list[IntTuple] = []
        for ci, ei in zip(c, wrap(e) if len(c) == 1 else e):
            out.extend(_lift_slice(ci, ei))
        return out
    if is_underscore(c):
        return [e]
    return []


def dice_tuple(crd: Coord, t: IntTuple) -> IntTuple:
    """dice(crd, t): keep the parts of `t` under integers (the complement of slice)."""
    if is_tuple(crd):
        out: list[IntTuple] = []
        for c, e in zip(crd, wrap(t) if len(crd) == 1 else t):
            out.extend(_lift_dice(c, e))
        return tuple(out)
    if is_underscore(crd):
        return ()
    return t


def _lift_dice(c: Coord, e: IntTuple) -> list[IntTuple]:
    if is_tuple(c):
        out: list[IntTuple] = []
        for ci, ei in zip(c, wrap(e) if len(c) == 1 else e):
            out.extend(_lift_dice(ci, ei))
        return out
    if is_underscore(c):
        return []
    return [e]


def zip2_by(t: IntTuple, guide: Nested) -> Modes:
    """((A,a),((B,b),(C,c)),d) guided by (X,(X,X)) -> ((A,(B,C)),(a,(b,c),d))."""
    if is_tuple(guide):
        if not is_tuple(t) or len(t) < len(guide):
            raise AlgebraError("Mismatched ranks", "zip2_by")
        split = [zip2_by(t[i], g) for i, g in enumerate(guide)]
        return (tuple(s[0] for s in split), tuple(s[1] for s in split) + tuple(t[len(guide):]))
    if not is_tuple(t) or len(t) != 2:
        raise AlgebraError("Mismatched ranks", "zip2_by expects a rank-2 mode")
    return t


def zip_tuples(a: IntTuple, b: IntTuple) -> Modes:
    """zip(a, b) of two int tuples: ((a0,b0),(a1,b1),...), or ((a,b)) for integers."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise AlgebraError("Mismatched Ranks", "zip")
        return tuple((x, y) for x, y in zip(a, b))
    return ((a, b),)


# --- text ---------------------------------------------------------------------------------

def fmt(t: Coord) -> str:
    """CuTe's print: static integers as `_N`, dynamic ones as `N`."""
    if is_tuple(t):
        return "(" + ",".join(fmt(e) for e in t) + ")"
    if isinstance(t, Dyn):
        return str(int(t))
    if is_underscore(t):
        return "_"
    return f"_{int(t)}"


def fmt_plain(t: Coord) -> str:
    """Human form without CuTe's static markers: (4,8)."""
    if is_tuple(t):
        return "(" + ",".join(fmt_plain(e) for e in t) + ")"
    return "_" if is_underscore(t) else str(int(t))


def to_static(t: IntTuple) -> IntTuple:
    return transform_leaf(t, lambda x: int(x) if is_int(x) else x)


def iter_leaves(t: IntTuple) -> Iterator[IntTuple]:
    return iter(flatten_to_tuple(t))
