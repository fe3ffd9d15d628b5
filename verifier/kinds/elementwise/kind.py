"""The element-wise kind, registered: a kernel whose output values are computed from its inputs lane by lane
(theorem 43).  The DSL reader writes one for each kernel that loads global tiles into registers, computes and stores
a global tile, every side tiled alike."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import (ELEMENTWISE_KEYS, ELEMENTWISE_KIND, ElementwiseCheck, read_elementwise_check,
                     reads_elementwise_check)

ELEMENTWISE_PRECEDENCE = 0     # asked first: `elementwise:` makes an element-wise check whatever else it names
ELEMENTWISE_THEOREMS = (TheoremId.ELEMENTWISE_COORDINATES,)


class ElementwiseKind(WithoutPictures):
    """Theorem 43 on an element-wise kernel."""
    explain_what = "an element-wise check: its report gives the tile, thread and value whose coordinates differ"
    name = ELEMENTWISE_KIND
    precedence = ELEMENTWISE_PRECEDENCE
    keys: tuple[str, ...] = ELEMENTWISE_KEYS
    summary_line = "an element-wise kernel computes each output element from its inputs at its coordinate (43)"
    needs_result_to_draw = False
    atomless = True          # its check names no atom: tilers and thread-value layouts

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_elementwise_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_elementwise_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, ElementwiseCheck)

        def build() -> Planned:
            from .theorems import elementwise
            plans: dict[TheoremId, PlanOf] = {
                TheoremId.ELEMENTWISE_COORDINATES: lambda: elementwise(check, context.suspects)}
            return Planned(plans)
        return [Group(ELEMENTWISE_THEOREMS, build)]


ELEMENTWISE = register(ElementwiseKind())
