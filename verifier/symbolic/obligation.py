"""An obligation: for every assignment of its bounded variables that satisfies the premise, the claim holds."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .expr import TRUE, Expr, Pred, Var, bit_width, texts_of, variables

if TYPE_CHECKING:
    from ..algebra.layout import Layout
    from ..algebra.swizzle import ComposedLayout


@dataclass(frozen=True)
class Distinct:
    """The obligation states that `value`, an expression of the variables `over`, is injective over their domain;
    `second` are the copies of `over` its pairwise claim quantifies the other point with.  Exhaustive enumeration
    then evaluates `value` once per point (not once per pair) and looks for a repeated value.  `layout`, when given,
    is the layout `value` is said to evaluate at the colexicographic index of `over` (`layout_of`): `decide` checks
    that it is, then may prove the injectivity from its strides (symbolic/strides.py)."""
    value: Expr
    over: tuple[Var, ...]
    second: tuple[Var, ...]
    layout: Layout | ComposedLayout | None = field(default=None, compare=False)

    def size(self) -> int:
        n = 1
        for v in self.over:
            n *= v.size
        return n

    def layout_of(self) -> Layout | ComposedLayout | None:
        """`layout`, when `value` is that layout at the colexicographic index of `over` over the layout's whole
        domain (checked: the expression is built again and compared); else None."""
        from .layouts import index_of, layout_expr
        if self.layout is None or self.size() != self.layout.size():
            return None
        index = index_of(list(self.over), [v.size for v in self.over])
        return self.layout if layout_expr(self.layout, index) == self.value else None


@dataclass
class Obligation:
    """forall variables in their domains: premise -> claim."""
    title: str                            # what it states, in words
    variables: list[Var]                  # the quantified variables, in the order a report lists them
    claim: Pred
    premise: Pred = TRUE
    shown: dict[str, Expr] = field(default_factory=dict)   # named intermediate numbers for the report
    lhs: Expr | None = None               # the two sides of an equality claim, when it is one
    rhs: Expr | None = None
    note: str = ""
    count_over: list[str] | None = None   # variables whose distinct values are counted (default: all)
    distinct: Distinct | None = None      # set when the claim is the injectivity of one expression (see Distinct)
    _width: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        declared = {v.name for v in self.variables}
        used = {v.name for v in variables(self.claim, self.premise)}
        if not used <= declared:
            raise ValueError(f"obligation '{self.title}': undeclared variables {sorted(used - declared)}")

    def domain_text(self) -> str:
        parts = [f"{v.name} in [0,{v.size})" for v in self.variables if v.size > 1]
        if self.premise != TRUE:
            parts.append(f"where {texts_of([self.premise])[0]}")
        return ", ".join(parts)

    def domain_size(self) -> int:
        n = 1
        for v in self.variables:
            n *= v.size
        return n

    def counted(self) -> list[Var]:
        keys = set(self.count_over or [v.name for v in self.variables])
        return [v for v in self.variables if v.name in keys]

    def counted_size(self) -> int:
        """Points of the counted variables (the domain a failure count refers to)."""
        n = 1
        for v in self.counted():
            n *= v.size
        return n

    def width(self) -> int:
        """Bit-vector width that holds every sub-term and every variable's range (computed once: an obligation is
        never changed after it is built)."""
        if self._width is None:
            w = bit_width(self.claim, self.premise, *self.variables)
            self._width = max([w] + [v.size.bit_length() + 2 for v in self.variables])
        return self._width
