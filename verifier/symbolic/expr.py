"""Integer expressions over bounded variables: the language obligations are written in.

An expression knows an interval that contains every value it can take on its variables' domains.
Those intervals decide the bit width of the Z3 encoding (wide enough for every sub-term, so
wrap-around can never make two different values equal), and let the builder drop `% n` and `// n`
that cannot change anything.

The tree is visited in one place, `fold`: an iterative post-order walk over the distinct nodes of a DAG
that hands each node and its children's results to a backend's operator table.  The backends
(`verifier.symbolic.backends`) are tables: SMT-LIB text for Z3, Python and numpy source for exact
evaluation and enumeration, and the closed-form text of reports.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar, Union, cast

ExprLike = Union["Expr", int]
R = TypeVar("R")
# A node's structural identity: (kind, parameter, the children's keys...) -- equal keys, the same expression.
NodeKey = tuple[Hashable, ...]
# What a compiled function returns: one value per root, Python ints (bools for predicates) or numpy arrays.
RootValues = tuple[Any, ...]


class Op(str, Enum):
    """Node kinds.  Integer nodes first, then predicates."""
    CONST = "const"
    VAR = "var"
    ADD = "+"            # n-ary sum
    MUL = "*"            # e * k, k a constant
    FLOORDIV = "//"      # e // k, k > 0
    MOD = "%"            # e % k, k > 0
    BITAND = "&"         # e & mask, mask a constant
    BITXOR = "^"         # a ^ b
    TRUE = "true"
    FALSE = "false"
    EQ = "=="
    LT = "<"
    AND = "and"          # n-ary
    OR = "or"            # n-ary
    NOT = "not"


def _pow2(k: int) -> bool:
    return k > 0 and k & (k - 1) == 0


class Node:
    """A node of the DAG: its kind, its children, one integer parameter, and a structural key."""
    __slots__ = ("op", "args", "k", "_key")
    op: Op
    args: tuple["Node", ...]
    k: int
    _key: NodeKey

    def key(self) -> NodeKey:
        return self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:  # structural identity, not the predicate (use eq())
        return isinstance(other, Node) and self._key == other._key


class Expr(Node):
    """An integer-valued node with bounds lo <= value <= hi on the variables' domains."""
    __slots__ = ("lo", "hi")
    args: tuple["Expr", ...]
    lo: int
    hi: int

    def __init__(self, op: Op, args: tuple["Expr", ...], k: int, lo: int, hi: int) -> None:
        self.op, self.args, self.k, self.lo, self.hi = op, args, k, lo, hi
        self._key = (op._value_, k) + tuple(a._key for a in args)   # _value_: no descriptor call (hot path)

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
        return floordiv(self, 1 << k) if k >= 0 else mul(self, 1 << -k)

    def __lshift__(self, k: int) -> "Expr":
        return mul(self, 1 << k)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and self._key == other._key

    def __repr__(self) -> str:
        return to_text(self)


class Const(Expr):
    __slots__ = ()

    def __init__(self, value: int) -> None:
        v = int(value)
        super().__init__(Op.CONST, (), v, v, v)

    @property
    def value(self) -> int:
        return self.k


class Var(Expr):
    """A variable over [0, size)."""
    __slots__ = ("name",)

    def __init__(self, name: str, size: int) -> None:
        if size <= 0:
            raise ValueError(f"domain of {name} is empty")
        self.name = name
        super().__init__(Op.VAR, (), int(size), 0, int(size) - 1)
        self._key = (Op.VAR.value, name, int(size))

    @property
    def size(self) -> int:
        return self.k


class Pred(Node):
    """A boolean node."""
    __slots__ = ()

    def __init__(self, op: Op, args: tuple[Node, ...]) -> None:
        self.op, self.args, self.k = op, args, 0
        self._key = (op._value_,) + tuple(a._key for a in args)

    def __and__(self, o: "Pred") -> "Pred":
        return and_(self, o)

    def __or__(self, o: "Pred") -> "Pred":
        return or_(self, o)

    def __invert__(self) -> "Pred":
        return not_(self)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and self._key == other._key

    def __repr__(self) -> str:
        return pred_text(self)


TRUE = Pred(Op.TRUE, ())
FALSE = Pred(Op.FALSE, ())


# --- builders (simplify as they build) ---------------------------------------------------------

def const(x: ExprLike) -> Expr:
    return x if isinstance(x, Expr) else Const(int(x))


def is_const(e: Node, v: int | None = None) -> bool:
    return e.op is Op.CONST and (v is None or e.k == v)


def add(*xs: ExprLike) -> Expr:
    terms: list[Expr] = []
    c = 0
    for x in xs:
        e = const(x)
        for p in (e.args if e.op is Op.ADD else (e,)):
            if p.op is Op.CONST:
                c += p.k
            else:
                terms.append(p)
    merged: dict[NodeKey, tuple[Expr, int, Expr | None]] = {}   # k1*e + k2*e -> (k1+k2)*e, in first-seen order
    for t in terms:
        base, k = (t.args[0], t.k) if t.op is Op.MUL else (t, 1)
        old = merged.get(base._key)
        # a term met once is kept as it is (the third entry); one met again is rebuilt with the summed coefficient
        merged[base._key] = (base, old[1] + k, None) if old else (base, k, t)
    out = [t if t is not None else mul(base, k) for base, k, t in merged.values() if k != 0]
    if c:
        out.append(Const(c))
    if not out:
        return Const(0)
    if len(out) == 1:
        return out[0]
    return Expr(Op.ADD, tuple(out), 0, sum(t.lo for t in out), sum(t.hi for t in out))


def mul(x: ExprLike, k: ExprLike) -> Expr:
    e = const(x)
    if isinstance(k, Expr):
        if k.op is Op.CONST:
            k = k.k
        elif e.op is Op.CONST:
            e, k = k, e.k
        else:
            raise TypeError("only multiplication by a constant is supported")
    k = int(k)
    if k == 0 or is_const(e, 0):
        return Const(0)
    if k == 1:
        return e
    if e.op is Op.CONST:
        return Const(e.k * k)
    if e.op is Op.MUL:
        return mul(e.args[0], e.k * k)
    if e.op is Op.ADD:
        return add(*[mul(t, k) for t in e.args])
    a, b = e.lo * k, e.hi * k
    return Expr(Op.MUL, (e,), k, min(a, b), max(a, b))


def _nonnegative(e: Expr, what: str) -> None:
    if e.lo < 0:
        raise ValueError(f"{what} of a possibly negative value ({to_text(e)})")


def floordiv(x: ExprLike, k: int) -> Expr:
    e = const(x)
    if k <= 0:
        raise ValueError("division by a non-positive constant")
    _nonnegative(e, "floor division")
    if k == 1:
        return e
    if e.op is Op.CONST:
        return Const(e.k // k)
    if e.hi < k:
        return Const(0)
    if e.op is Op.FLOORDIV:
        return floordiv(e.args[0], e.k * k)
    if e.op is Op.MUL and e.k > 0 and k % e.k == 0:      # (x*c) // (c*q) = x // q, for x >= 0
        return floordiv(e.args[0], k // e.k)
    split = _split_multiples(e, k)
    if split is not None:                                 # (k*M + r) // k = M + r // k
        multiple, rest = split
        return add(multiple, floordiv(rest, k))
    return Expr(Op.FLOORDIV, (e,), k, e.lo // k, e.hi // k)


def mod(x: ExprLike, k: int) -> Expr:
    e = const(x)
    if k <= 0:
        raise ValueError("modulo by a non-positive constant")
    _nonnegative(e, "modulo")
    if k == 1:
        return Const(0)
    if e.op is Op.CONST:
        return Const(e.k % k)
    if e.hi < k:
        return e
    if e.op is Op.MOD and e.k % k == 0:
        return mod(e.args[0], k)
    if e.op is Op.MUL and e.k > 0 and k % e.k == 0:      # (x*c) % (c*q) = (x % q) * c, for x >= 0
        return mul(mod(e.args[0], k // e.k), e.k)
    split = _split_multiples(e, k)
    if split is not None:                                 # (k*M + r) % k = r % k
        return mod(split[1], k)
    return Expr(Op.MOD, (e,), k, 0, min(e.hi, k - 1))


def _split_multiples(e: Expr, k: int) -> tuple[Expr, Expr] | None:
    """e = k*M + r with M the sum of e's terms whose coefficient is a multiple of k (divided by k) and r >= 0 the
    others; None when no term is such a multiple or r may be negative.  Exact: floor((k*M + r) / k) = M + floor(r
    / k) and (k*M + r) mod k = r mod k for every integer M."""
    terms = e.args if e.op is Op.ADD else (e,)
    multiples: list[Expr] = []
    others: list[Expr] = []
    for t in terms:
        if t.op is Op.CONST:
            multiples.append(Const(t.k // k))
            others.append(Const(t.k % k))
        elif t.op is Op.MUL and t.k % k == 0:
            multiples.append(mul(t.args[0], t.k // k))
        else:
            others.append(t)
    if len(others) == len(terms):
        return None
    rest = add(*others)
    if rest.lo < 0:
        return None
    return add(*multiples), rest


def bitand(x: ExprLike, mask: int) -> Expr:
    e = const(x)
    _nonnegative(e, "bitwise and")
    if mask < 0:
        raise ValueError("a negative bit mask")
    if e.op is Op.CONST:
        return Const(e.k & mask)
    if mask == 0:
        return Const(0)
    if (mask + 1) & mask == 0:  # a low-bit mask is a modulo
        return mod(e, mask + 1)
    return Expr(Op.BITAND, (e,), mask, 0, min(mask, (1 << e.hi.bit_length()) - 1))


def bitxor(x: ExprLike, y: ExprLike) -> Expr:
    a, b = const(x), const(y)
    _nonnegative(a, "xor")
    _nonnegative(b, "xor")
    if is_const(a, 0):
        return b
    if is_const(b, 0):
        return a
    if a.op is Op.CONST and b.op is Op.CONST:
        return Const(a.k ^ b.k)
    return Expr(Op.BITXOR, (a, b), 0, 0, (1 << max(a.hi.bit_length(), b.hi.bit_length())) - 1)


def eq(a: ExprLike, b: ExprLike) -> Pred:
    x, y = const(a), const(b)
    if x._key == y._key:
        return TRUE
    if x.op is Op.CONST and y.op is Op.CONST:
        return TRUE if x.k == y.k else FALSE
    if x.hi < y.lo or y.hi < x.lo:
        return FALSE
    return Pred(Op.EQ, (x, y))


def ne(a: ExprLike, b: ExprLike) -> Pred:
    return not_(eq(a, b))


def lt(a: ExprLike, b: ExprLike) -> Pred:
    x, y = const(a), const(b)
    if x.hi < y.lo:
        return TRUE
    if x.lo >= y.hi:
        return FALSE
    return Pred(Op.LT, (x, y))


def le(a: ExprLike, b: ExprLike) -> Pred:
    return lt(a, add(b, 1))


def _junction(op: Op, unit: Pred, zero: Pred, ps: Iterable[Pred]) -> Pred:
    args: list[Pred] = []
    seen: set[NodeKey] = set()
    for p in ps:
        if p is zero or p == zero:
            return zero
        if p is unit or p == unit:
            continue
        for q in (p.args if p.op is op else (p,)):
            if q._key not in seen:
                seen.add(q._key)
                args.append(cast(Pred, q))   # the children of a junction are predicates
    if not args:
        return unit
    return args[0] if len(args) == 1 else Pred(op, tuple(args))


def and_(*ps: Pred) -> Pred:
    return _junction(Op.AND, TRUE, FALSE, ps)


def or_(*ps: Pred) -> Pred:
    return _junction(Op.OR, FALSE, TRUE, ps)


def not_(p: Pred) -> Pred:
    if p == TRUE:
        return FALSE
    if p == FALSE:
        return TRUE
    if p.op is Op.NOT:
        return cast(Pred, p.args[0])   # the child of a negation is a predicate
    return Pred(Op.NOT, (p,))


def implies(p: Pred, q: Pred) -> Pred:
    return or_(not_(p), q)


# --- the one visitor ---------------------------------------------------------------------------

def postorder(roots: Iterable[Node]) -> Iterator[Node]:
    """Every distinct node reachable from `roots`, children before parents (iterative: no depth limit)."""
    done: set[NodeKey] = set()
    for root in roots:
        if root._key in done:
            continue
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node._key in done:
                continue
            if expanded:
                done.add(node._key)
                yield node
                continue
            stack.append((node, True))
            for child in reversed(node.args):
                if child._key not in done:
                    stack.append((child, False))


Table = Mapping[Op, Callable[[Node, list[R]], R]]


def fold(roots: Iterable[Node], table: Table[R], bind: Callable[[Node, R], R] | None = None,
         nodes: Sequence[Node] | None = None) -> dict[Hashable, R]:
    """Results of `table[node.op](node, child results)` for every node under `roots`, keyed by node key.

    `bind` sees each non-leaf result and may replace it (a backend names shared sub-terms there).  `nodes`, when
    given, is `list(postorder(roots))` already walked by the caller (not walked again)."""
    out: dict[Hashable, R] = {}
    for node in (postorder(roots) if nodes is None else nodes):
        r = table[node.op](node, [out[c._key] for c in node.args])
        if bind is not None and node.args:
            r = bind(node, r)
        out[node._key] = r
    return out


def variables(*roots: Node) -> list[Var]:
    """The variables under `roots`, sorted by name.  The walk goes by object identity (no structural keys hashed):
    a sub-term shared by its users is visited once, and one built twice is visited twice, as often as it was built."""
    found: dict[str, Var] = {}
    seen: set[int] = set()
    stack: list[Node] = list(roots)
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, Var):
            found[n.name] = n
        else:
            stack.extend(n.args)
    return [found[k] for k in sorted(found)]


def bit_width(*roots: Node) -> int:
    """A signed width that holds every value of every sub-term (products and differences included)."""
    m = 1
    for n in postorder(roots):
        if isinstance(n, Expr):
            m = max(m, abs(n.lo), abs(n.hi))
            if n.op is Op.MUL:
                e = n.args[0]
                assert isinstance(e, Expr)
                m = max(m, abs(e.lo * n.k), abs(e.hi * n.k))
        elif n.op is Op.LT:
            a, b = n.args
            assert isinstance(a, Expr) and isinstance(b, Expr)
            m = max(m, abs(a.hi - b.lo), abs(a.lo - b.hi))
    return m.bit_length() + 2


# --- evaluation and text, through the backends ----------------------------------------------------

def compile_py(roots: Sequence[Node], order: Sequence[Var]) -> Callable[..., RootValues]:
    """A Python function of the variables (in `order`) returning the value of every root, exactly."""
    from .backends import compile_function
    return compile_function(roots, order, numpy=False)


def evaluate(roots: Sequence[Node], point: dict[str, int]) -> list[Any]:
    """The value of every root at one point (a dict naming every variable of the roots), exactly."""
    from .backends import evaluate as _evaluate
    return _evaluate(roots, point)


def compile_numpy(roots: Sequence[Node], order: Sequence[Var]) -> Callable[..., RootValues]:
    """Like compile_py, for int64 numpy arrays broadcast over a grid of the variables."""
    from .backends import compile_function
    return compile_function(roots, order, numpy=True)


def to_text(e: Node) -> str:
    """Closed form with Python operators, e.g. 2*t + v%2 + 64*(v//2)."""
    from .backends import text_of
    return text_of(e)


def pred_text(p: Node) -> str:
    return to_text(p)


def texts_of(es: Sequence[Node]) -> list[str]:
    """Closed forms of several nodes at once (shared sub-terms printed once each)."""
    from .backends import texts_of as _texts
    return _texts(es)


__all__ = ["Op", "Node", "Expr", "Const", "Var", "Pred", "TRUE", "FALSE", "ExprLike", "const", "is_const", "add",
           "mul", "floordiv", "mod", "bitand", "bitxor", "eq", "ne", "lt", "le", "and_", "or_", "not_", "implies",
           "postorder", "fold", "variables", "bit_width", "compile_py", "compile_numpy", "evaluate",
           "to_text", "pred_text", "texts_of", "_pow2"]
