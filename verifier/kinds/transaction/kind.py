"""The transaction kind, registered: an mbarrier armed for the bytes its TMA loads deliver (theorem 41).  The DSL
reader writes one for each barrier a producer arms with expect_tx whose loads it finds."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import (TRANSACTION_KEYS, TRANSACTION_KIND, TransactionCheck, read_transaction_check,
                     reads_transaction_check)

TRANSACTION_PRECEDENCE = 0     # asked first: `transaction:` makes a transaction check whatever else it names
TRANSACTION_ORDER = (TheoremId.TMA_TRANSACTION_BYTES,)


class TransactionKind(WithoutPictures):
    """Theorem 41 on a TMA barrier's armed bytes."""
    explain_what = "a transaction check: its report gives the bytes armed and delivered"
    name = TRANSACTION_KIND
    precedence = TRANSACTION_PRECEDENCE
    keys: tuple[str, ...] = TRANSACTION_KEYS
    summary_line = "a TMA barrier armed for exactly the bytes its loads deliver in a phase (41)"
    needs_result_to_draw = False
    atomless = True          # its check names no atom: bytes armed and delivered

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_transaction_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_transaction_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, TransactionCheck)

        def build() -> Planned:
            from .theorems import transaction_bytes
            plans: dict[TheoremId, PlanOf] = {
                TheoremId.TMA_TRANSACTION_BYTES: lambda: transaction_bytes(check, context.suspects)}
            return Planned(plans)
        return [Group(TRANSACTION_ORDER, build)]


TRANSACTION = register(TransactionKind())
