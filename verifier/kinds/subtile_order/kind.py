"""The subtile-order kind, registered: an epilogue's loop over the subtiles of an accumulator stage (theorem 42).
The DSL reader writes one for each epilogue loop that loads tensor memory a subtile a pass and TMA-stores a staged
shared subtile."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import (SUBTILE_ORDER_KEYS, SUBTILE_ORDER_KIND, SubtileOrderCheck, read_subtile_order_check,
                     reads_subtile_order_check)

SUBTILE_ORDER_PRECEDENCE = 0     # asked first: `subtile_order:` makes a subtile-order check whatever else it names
SUBTILE_ORDER_THEOREMS = (TheoremId.EPILOGUE_SUBTILE_ORDER,)


class SubtileOrderKind(WithoutPictures):
    """Theorem 42 on an epilogue loop's subtiles."""
    explain_what = "a subtile-order check: its report gives the subtile each store puts and where"
    name = SUBTILE_ORDER_KIND
    precedence = SUBTILE_ORDER_PRECEDENCE
    keys: tuple[str, ...] = SUBTILE_ORDER_KEYS
    summary_line = "an epilogue loop's TMA stores each put the subtile their stage holds where it belongs (42)"
    needs_result_to_draw = False
    atomless = True          # its check names no atom: subtiles, stages and places

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_subtile_order_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_subtile_order_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, SubtileOrderCheck)

        def build() -> Planned:
            from .theorems import subtile_order
            plans: dict[TheoremId, PlanOf] = {
                TheoremId.EPILOGUE_SUBTILE_ORDER: lambda: subtile_order(check, context.suspects)}
            return Planned(plans)
        return [Group(SUBTILE_ORDER_THEOREMS, build)]


SUBTILE_ORDER = register(SubtileOrderKind())
