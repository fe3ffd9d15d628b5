"""Integer expressions over bounded variables: the language obligations are written in.

An expression knows an interval that contains every value it can take on its variables' domains.
Those intervals decide the bit width of the Z3 encoding (wide enough for every sub-term, so
wrap-around can never make two different values equal), and let the builder drop `% n` and `// n`
that cannot change anything.  The same expression is evaluated on Python integers (to decode and
count counterexamples), lowered to Z3 bit-vectors (to prove), and printed in closed form (reports).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Union

Number = int
ExprLike = Union["Expr", int]


def _pow2(k: int) -> bool:
    return k > 0 and k & (k - 1) == 0


class Expr:
    """Base class; subclasses are immutable nodes with `lo`/`hi` bounds."""
    __slots__ = ("lo", "hi", "_key")
    lo: int
    hi: int

    # -- builders ---------------------------------------------------------------------
    def __add__(self, o: ExprLike) -> "Expr":
        return add(self, o)

    def __radd__(self, o: ExprLike) -> "Expr":
        return add(o, self)

    def __sub__(self, o: ExprLike) -> "Expr":
        return add(self, mul(o, -1))

    def __rsub__(self, o: ExprLike) -> "Expr":
        return add(o, mul(self, -1))

    def __neg__(self) -> "Expr":
        return mul(self, -1)

    def __mul__(self, o: ExprLike) -> "Expr":
        return mul(self, o)

    def __rmul__(self, o: ExprLike) -> "Expr":
        return mul(self, o)

    def __floordiv__(self, k: int) -> "Expr":
        return floordiv(self, k)

    def __mod__(self, k: int) -> "Expr":
        return mod(self, k)

    def __and__(self, m: int) -> "Expr":
        return bitand(self, m)

    def __xor__(self, o: ExprLike) -> "Expr":
        return bitxor(self, o)

    def __rxor__(self, o: ExprLike) -> "Expr":
        return bitxor(o, self)

    def __rshift__(self, k: int) -> "Expr":
        return shr(self, k)

    def __lshift__(self, k: int) -> "Expr":
        return mul(self, 1 << k)

    def key(self) -> tuple:
        return self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:  # structural identity, not the predicate (use eq())
        return isinstance(other, Expr) and self._key == other._key

    def __repr__(self) -> str:
        return to_text(self)


class Const(Expr):
    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = int(value)
        self.lo = self.hi = self.value
        self._key = ("c", self.value)


class Var(Expr):
    """A variable over [0, size)."""
    __slots__ = ("name", "size")

    def __init__(self, name: str, size: int) -> None:
        if size <= 0:
            raise ValueError(f"domain of {name} is empty")
        self.name, self.size = name, int(size)
        self.lo, self.hi = 0, self.size - 1
        self._key = ("v", name, self.size)


class Add(Expr):
    __slots__ = ("terms",)

    def __init__(self, terms: tuple[Expr, ...]) -> None:
        self.terms = terms
        self.lo = sum(t.lo for t in terms)
        self.hi = sum(t.hi for t in terms)
        self._key = ("+",) + tuple(t._key for t in terms)


class Mul(Expr):
    """e * k for a constant k."""
    __slots__ = ("e", "k")

    def __init__(self, e: Expr, k: int) -> None:
        self.e, self.k = e, k
        a, b = e.lo * k, e.hi * k
        self.lo, self.hi = min(a, b), max(a, b)
        self._key = ("*", e._key, k)


class FloorDiv(Expr):
    __slots__ = ("e", "k")

    def __init__(self, e: Expr, k: int) -> None:
        self.e, self.k = e, k
        self.lo, self.hi = e.lo // k, e.hi // k
        self._key = ("//", e._key, k)


class Mod(Expr):
    __slots__ = ("e", "k")

    def __init__(self, e: Expr, k: int) -> None:
        self.e, self.k = e, k
        self.lo, self.hi = 0, min(e.hi, k - 1)
        self._key = ("%", e._key, k)


class BitAnd(Expr):
    __slots__ = ("e", "mask")

    def __init__(self, e: Expr, mask: int) -> None:
        self.e, self.mask = e, mask
        self.lo, self.hi = 0, min(mask, (1 << e.hi.bit_length()) - 1)
        self._key = ("&", e._key, mask)


class BitXor(Expr):
    __slots__ = ("a", "b")

    def __init__(self, a: Expr, b: Expr) -> None:
        self.a, self.b = a, b
        self.lo, self.hi = 0, (1 << max(a.hi.bit_length(), b.hi.bit_length())) - 1
        self._key = ("^", a._key, b._key)


class Shr(Expr):
    __slots__ = ("e", "k")

    def __init__(self, e: Expr, k: int) -> None:
        self.e, self.k = e, k
        self.lo, self.hi = e.lo >> k, e.hi >> k
        self._key = (">>", e._key, k)


class Ite(Expr):
    __slots__ = ("c", "a", "b")

    def __init__(self, c: "Pred", a: Expr, b: Expr) -> None:
        self.c, self.a, self.b = c, a, b
        self.lo, self.hi = min(a.lo, b.lo), max(a.hi, b.hi)
        self._key = ("ite", c._key, a._key, b._key)


# --- predicates ------------------------------------------------------------------------------

class Pred:
    __slots__ = ("op", "args", "_key")

    def __init__(self, op: str, args: tuple) -> None:
        self.op, self.args = op, args
        self._key = (op,) + tuple(a._key if isinstance(a, (Expr, Pred)) else a for a in args)

    def __and__(self, o: "Pred") -> "Pred":
        return and_(self, o)

    def __or__(self, o: "Pred") -> "Pred":
        return or_(self, o)

    def __invert__(self) -> "Pred":
        return not_(self)

    def __repr__(self) -> str:
        return pred_text(self)


TRUE = Pred("true", ())
FALSE = Pred("false", ())


def const(x: ExprLike) -> Expr:
    return x if isinstance(x, Expr) else Const(int(x))


def _is_const(e: Expr, v: int | None = None) -> bool:
    return isinstance(e, Const) and (v is None or e.value == v)


def add(*xs: ExprLike) -> Expr:
    terms: list[Expr] = []
    c = 0
    for x in xs:
        e = const(x)
        parts = e.terms if isinstance(e, Add) else (e,)
        for p in parts:
            if isinstance(p, Const):
                c += p.value
            else:
                terms.append(p)
    # merge k1*e + k2*e
    merged: dict[tuple, tuple[Expr, int]] = {}
    order: list[tuple] = []
    for t in terms:
        base, k = (t.e, t.k) if isinstance(t, Mul) else (t, 1)
        if base._key in merged:
            merged[base._key] = (base, merged[base._key][1] + k)
        else:
            merged[base._key] = (base, k)
            order.append(base._key)
    terms = [mul(merged[key][0], merged[key][1]) for key in order if merged[key][1] != 0]
    if c:
        terms.append(Const(c))
    if not terms:
        return Const(0)
    if len(terms) == 1:
        return terms[0]
    return Add(tuple(terms))


def mul(x: ExprLike, k: ExprLike) -> Expr:
    e = const(x)
    if isinstance(k, Expr):
        if isinstance(k, Const):
            k = k.value
        elif isinstance(e, Const):
            e, k = k, e.value
        else:
            raise TypeError("only multiplication by a constant is supported")
    k = int(k)
    if k == 0 or _is_const(e, 0):
        return Const(0)
    if k == 1:
        return e
    if isinstance(e, Const):
        return Const(e.value * k)
    if isinstance(e, Mul):
        return mul(e.e, e.k * k)
    if isinstance(e, Add):
        return add(*[mul(t, k) for t in e.terms])
    return Mul(e, k)


def floordiv(x: ExprLike, k: int) -> Expr:
    e = const(x)
    if k <= 0:
        raise ValueError("division by a non-positive constant")
    if e.lo < 0:
        raise ValueError(f"floor division of a possibly negative value ({to_text(e)})")
    if k == 1:
        return e
    if isinstance(e, Const):
        return Const(e.value // k)
    if e.hi < k:
        return Const(0)
    if isinstance(e, FloorDiv):
        return floordiv(e.e, e.k * k)
    return FloorDiv(e, k)


def mod(x: ExprLike, k: int) -> Expr:
    e = const(x)
    if k <= 0:
        raise ValueError("modulo by a non-positive constant")
    if e.lo < 0:
        raise ValueError(f"modulo of a possibly negative value ({to_text(e)})")
    if k == 1:
        return Const(0)
    if isinstance(e, Const):
        return Const(e.value % k)
    if e.hi < k:
        return e
    if isinstance(e, Mod) and e.k % k == 0:
        return mod(e.e, k)
    return Mod(e, k)


def bitand(x: ExprLike, mask: int) -> Expr:
    e = const(x)
    if e.lo < 0:
        raise ValueError("bitwise and of a possibly negative value")
    if isinstance(e, Const):
        return Const(e.value & mask)
    if mask == 0:
        return Const(0)
    if (mask + 1) & mask == 0:  # low-bit mask
        return mod(e, mask + 1)
    return BitAnd(e, mask)


def bitxor(x: ExprLike, y: ExprLike) -> Expr:
    a, b = const(x), const(y)
    if a.lo < 0 or b.lo < 0:
        raise ValueError("xor of a possibly negative value")
    if _is_const(a, 0):
        return b
    if _is_const(b, 0):
        return a
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(a.value ^ b.value)
    return BitXor(a, b)


def shr(x: ExprLike, k: int) -> Expr:
    e = const(x)
    if k < 0:
        return mul(e, 1 << -k)
    if k == 0:
        return e
    return floordiv(e, 1 << k)


def ite(c: Pred, a: ExprLike, b: ExprLike) -> Expr:
    a, b = const(a), const(b)
    if c is TRUE:
        return a
    if c is FALSE:
        return b
    if a._key == b._key:
        return a
    return Ite(c, a, b)


def eq(a: ExprLike, b: ExprLike) -> Pred:
    a, b = const(a), const(b)
    if isinstance(a, Const) and isinstance(b, Const):
        return TRUE if a.value == b.value else FALSE
    if a._key == b._key:
        return TRUE
    if a.hi < b.lo or b.hi < a.lo:
        return FALSE
    return Pred("==", (a, b))


def ne(a: ExprLike, b: ExprLike) -> Pred:
    return not_(eq(a, b))


def lt(a: ExprLike, b: ExprLike) -> Pred:
    a, b = const(a), const(b)
    if a.hi < b.lo:
        return TRUE
    if a.lo >= b.hi:
        return FALSE
    return Pred("<", (a, b))


def le(a: ExprLike, b: ExprLike) -> Pred:
    return lt(a, add(b, 1))


def and_(*ps: Pred) -> Pred:
    args: list[Pred] = []
    for p in ps:
        if p is FALSE:
            return FALSE
        if p is TRUE:
            continue
        args.extend(p.args if p.op == "and" else (p,))
    if not args:
        return TRUE
    return args[0] if len(args) == 1 else Pred("and", tuple(args))


def or_(*ps: Pred) -> Pred:
    args: list[Pred] = []
    for p in ps:
        if p is TRUE:
            return TRUE
        if p is FALSE:
            continue
        args.extend(p.args if p.op == "or" else (p,))
    if not args:
        return FALSE
    return args[0] if len(args) == 1 else Pred("or", tuple(args))


def not_(p: Pred) -> Pred:
    if p is TRUE:
        return FALSE
    if p is FALSE:
        return TRUE
    if p.op == "not":
        return p.args[0]
    return Pred("not", (p,))


def implies(p: Pred, q: Pred) -> Pred:
    return or_(not_(p), q)


# --- traversal -------------------------------------------------------------------------------

def children(e: Expr | Pred) -> tuple:
    if isinstance(e, Pred):
        return e.args
    if isinstance(e, Add):
        return e.terms
    if isinstance(e, (Mul, FloorDiv, Mod, BitAnd, Shr)):
        return (e.e,)
    if isinstance(e, BitXor):
        return (e.a, e.b)
    if isinstance(e, Ite):
        return (e.c, e.a, e.b)
    return ()


def walk(*roots: Expr | Pred) -> Iterable[Expr | Pred]:
    seen: set = set()
    stack = list(roots)
    while stack:
        n = stack.pop()
        if not isinstance(n, (Expr, Pred)) or n._key in seen:
            continue
        seen.add(n._key)
        yield n
        stack.extend(children(n))


def variables(*roots: Expr | Pred) -> list[Var]:
    out = {n.name: n for n in walk(*roots) if isinstance(n, Var)}
    return [out[k] for k in sorted(out)]


def bit_width(*roots: Expr | Pred) -> int:
    """A signed width that holds every value of every sub-term (and the products of comparisons)."""
    m = 1
    for n in walk(*roots):
        if isinstance(n, Expr):
            m = max(m, abs(n.lo), abs(n.hi))
            if isinstance(n, Mul):
                m = max(m, abs(n.e.lo * n.k), abs(n.e.hi * n.k))
        if isinstance(n, Pred) and n.op == "<":  # a < b is lowered as a - b < 0 nowhere; keep room anyway
            a, b = n.args
            m = max(m, abs(a.hi - b.lo), abs(a.lo - b.hi))
    return m.bit_length() + 2


# --- evaluation on Python integers -------------------------------------------------------------

def _py(e: Expr | Pred, names: dict[str, str], memo: dict) -> str:
    k = e._key
    if k in memo:
        return memo[k]
    if isinstance(e, Const):
        s = str(e.value)
    elif isinstance(e, Var):
        s = names[e.name]
    elif isinstance(e, Add):
        s = "(" + " + ".join(_py(t, names, memo) for t in e.terms) + ")"
    elif isinstance(e, Mul):
        s = f"({_py(e.e, names, memo)} * {e.k})"
    elif isinstance(e, FloorDiv):
        s = f"({_py(e.e, names, memo)} // {e.k})"
    elif isinstance(e, Mod):
        s = f"({_py(e.e, names, memo)} % {e.k})"
    elif isinstance(e, BitAnd):
        s = f"({_py(e.e, names, memo)} & {e.mask})"
    elif isinstance(e, BitXor):
        s = f"({_py(e.a, names, memo)} ^ {_py(e.b, names, memo)})"
    elif isinstance(e, Shr):
        s = f"({_py(e.e, names, memo)} >> {e.k})"
    elif isinstance(e, Ite):
        s = f"({_py(e.a, names, memo)} if {_py(e.c, names, memo)} else {_py(e.b, names, memo)})"
    elif isinstance(e, Pred):
        if e is TRUE:
            s = "True"
        elif e is FALSE:
            s = "False"
        elif e.op in ("==", "<"):
            s = f"({_py(e.args[0], names, memo)} {e.op} {_py(e.args[1], names, memo)})"
        elif e.op == "and":
            s = "(" + " and ".join(_py(a, names, memo) for a in e.args) + ")"
        elif e.op == "or":
            s = "(" + " or ".join(_py(a, names, memo) for a in e.args) + ")"
        elif e.op == "not":
            s = f"(not {_py(e.args[0], names, memo)})"
        else:
            raise ValueError(e.op)
    else:
        raise TypeError(type(e))
    memo[k] = s
    return s


def compile_py(roots: list[Expr | Pred], order: list[Var]) -> Callable[..., tuple]:
    """A Python function of the variables (in `order`) returning the value of every root."""
    names = {v.name: f"_a{i}" for i, v in enumerate(order)}
    memo: dict = {}
    body = "".join(_py(r, names, memo) + ", " for r in roots)
    src = f"lambda {', '.join(names[v.name] for v in order) or '_unused=None'}: ({body})"
    return eval(src, {})  # noqa: S307 - source generated from our own AST


def _np(e: Expr | Pred, names: dict[str, str], memo: dict) -> str:
    """numpy spelling: the same operators on int64 arrays, np.where for Ite, & | ~ on booleans."""
    k = e._key
    if k in memo:
        return memo[k]
    if isinstance(e, Ite):
        s = f"_np.where({_np(e.c, names, memo)}, {_np(e.a, names, memo)}, {_np(e.b, names, memo)})"
    elif isinstance(e, Pred):
        if e is TRUE:
            s = "True"
        elif e is FALSE:
            s = "False"
        elif e.op in ("==", "<"):
            s = f"({_np(e.args[0], names, memo)} {e.op} {_np(e.args[1], names, memo)})"
        elif e.op == "and":
            s = "(" + " & ".join(_np(a, names, memo) for a in e.args) + ")"
        elif e.op == "or":
            s = "(" + " | ".join(_np(a, names, memo) for a in e.args) + ")"
        else:
            s = f"(~{_np(e.args[0], names, memo)})"
    elif isinstance(e, (Const, Var)):
        s = _py(e, names, {})
    elif isinstance(e, Add):
        s = "(" + " + ".join(_np(t, names, memo) for t in e.terms) + ")"
    elif isinstance(e, Mul):
        s = f"({_np(e.e, names, memo)} * {e.k})"
    elif isinstance(e, FloorDiv):
        s = f"({_np(e.e, names, memo)} // {e.k})"
    elif isinstance(e, Mod):
        s = f"({_np(e.e, names, memo)} % {e.k})"
    elif isinstance(e, BitAnd):
        s = f"({_np(e.e, names, memo)} & {e.mask})"
    elif isinstance(e, BitXor):
        s = f"({_np(e.a, names, memo)} ^ {_np(e.b, names, memo)})"
    elif isinstance(e, Shr):
        s = f"({_np(e.e, names, memo)} >> {e.k})"
    else:
        raise TypeError(type(e))
    memo[k] = s
    return s


def compile_numpy(roots: list[Expr | Pred], order: list[Var]) -> Callable[..., tuple]:
    """Like compile_py, for numpy arrays (broadcast over a grid of the variables)."""
    import numpy as np
    names = {v.name: f"_a{i}" for i, v in enumerate(order)}
    memo: dict = {}
    body = "".join(_np(r, names, memo) + ", " for r in roots)
    src = f"lambda {', '.join(names[v.name] for v in order) or '_unused=None'}: ({body})"
    return eval(src, {"_np": np})  # noqa: S307 - source generated from our own AST


def evaluate(e: Expr | Pred, env: dict[str, int]) -> Any:
    vs = variables(e)
    f = compile_py([e], vs)
    return f(*[env[v.name] for v in vs])[0]


# --- text ------------------------------------------------------------------------------------

def to_text(e: Expr) -> str:
    """Closed form with Python operators, e.g. 2*t + v%2 + 64*(v//2)."""
    if isinstance(e, Const):
        return str(e.value)
    if isinstance(e, Var):
        return e.name
    if isinstance(e, Add):
        out = ""
        for i, t in enumerate(e.terms):
            s = to_text(t)
            if i and s.startswith("-"):
                out += " - " + s[1:]
            elif i:
                out += " + " + s
            else:
                out = s
        return out
    if isinstance(e, Mul):
        inner = to_text(e.e)
        if isinstance(e.e, (Add, BitXor, Ite)):
            inner = f"({inner})"
        elif isinstance(e.e, (FloorDiv, Mod, Shr, BitAnd)):
            inner = f"({inner})"
        return f"-{inner}" if e.k == -1 else f"{e.k}*{inner}"
    if isinstance(e, FloorDiv):
        return f"{_atom(e.e)}//{e.k}"
    if isinstance(e, Mod):
        return f"{_atom(e.e)}%{e.k}"
    if isinstance(e, BitAnd):
        return f"{_atom(e.e)} & {e.mask:#x}"
    if isinstance(e, BitXor):
        return f"{_atom(e.a)} ^ {_atom(e.b)}"
    if isinstance(e, Shr):
        return f"{_atom(e.e)} >> {e.k}"
    if isinstance(e, Ite):
        return f"({to_text(e.a)} if {pred_text(e.c)} else {to_text(e.b)})"
    raise TypeError(type(e))


def _atom(e: Expr) -> str:
    s = to_text(e)
    return s if isinstance(e, (Var, Const)) else f"({s})"


def pred_text(p: Pred) -> str:
    if p is TRUE:
        return "true"
    if p is FALSE:
        return "false"
    if p.op in ("==", "<"):
        return f"{to_text(p.args[0])} {p.op} {to_text(p.args[1])}"
    if p.op == "not":
        inner = p.args[0]
        if inner.op == "==":
            return f"{to_text(inner.args[0])} != {to_text(inner.args[1])}"
        return f"not ({pred_text(inner)})"
    joiner = " and " if p.op == "and" else " or "
    return joiner.join(f"({pred_text(a)})" for a in p.args)
