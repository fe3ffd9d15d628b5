"""The epilogue-subtile kind, registered: a tiled MMA's accumulator stored one subtile at a time (theorem 39).  The
DSL reader writes one for each epilogue whose shared C tile is smaller than the tiled MMA's C tile."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import SUBTILE_KEYS, SUBTILE_KIND, SubtileCheck, read_subtile_check, reads_subtile_check

SUBTILE_PRECEDENCE = 0       # asked first: `subtiles:` makes an epilogue-subtile check whatever else it names
SUBTILE_ORDER = (TheoremId.EPILOGUE_SUBTILES,)
PIPELINE_ORDER = (TheoremId.EPILOGUE_STORE_PIPELINE,)


class SubtileKind(WithoutPictures):
    """Theorem 39 on an accumulator's subtiles."""
    explain_what = "an epilogue-subtile check: its report names the subtile, thread and value and the places they reach"
    name = SUBTILE_KIND
    precedence = SUBTILE_PRECEDENCE
    keys: tuple[str, ...] = SUBTILE_KEYS
    summary_line = ("an accumulator stored subtile by subtile: each element at its own place of the tile (39), the TMA "
                    "stores' stages not rewritten while read (40)")
    needs_result_to_draw = False

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_subtile_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_subtile_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, SubtileCheck) and check.mma is not None and check.copy is not None
        mma_spec, copy_spec = spec.mma_atoms[check.mma], spec.copy_atoms[check.copy]

        def build() -> Planned:
            from ..store_pipeline import store_pipeline
            from .theorems import subtile_stores
            plans: dict[TheoremId, PlanOf] = {
                TheoremId.EPILOGUE_SUBTILES: lambda: subtile_stores(check, mma_spec, copy_spec, context.suspects)}
            if check.pipeline is not None:
                pipeline = check.pipeline
                blame = context.suspects.field("subtiles.pipeline", "the TMA stores' pipeline over the staged shared "
                                                          "subtile: its stages, fences and waits")
                plans[TheoremId.EPILOGUE_STORE_PIPELINE] = lambda: store_pipeline(pipeline, blame)
            return Planned(plans)
        return [Group(SUBTILE_ORDER + (PIPELINE_ORDER if check.pipeline is not None else ()), build)]


SUBTILE = register(SubtileKind())
