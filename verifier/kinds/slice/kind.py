"""The thread-slice kind, registered: which slice of a tiled copy each thread of the kernel takes (theorem 37).  The
DSL reader writes one for each tiled copy a kernel slices at a coordinate other than threadIdx.x itself."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import SLICE_KEYS, SLICE_KIND, SliceCheck, read_slice_check, reads_slice_check

SLICE_PRECEDENCE = 0         # asked first: `slice:` makes a thread-slice check whatever else it names
SLICE_ORDER = (TheoremId.THREAD_SLICE,)


class SliceKind(WithoutPictures):
    """Theorem 37 on a tiled copy's thread coordinate."""
    explain_what = "a thread-slice check: its report names the thread and the slice it takes"
    name = SLICE_KIND
    precedence = SLICE_PRECEDENCE
    keys: tuple[str, ...] = SLICE_KEYS
    summary_line = "the slice of a tiled copy each thread takes, from the coordinate it hands get_slice (37)"
    needs_result_to_draw = False

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_slice_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_slice_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, SliceCheck)
        atom = spec.copy_atoms.get(check.copy)
        instruction = atom.instruction if atom is not None else check.copy

        def build() -> Planned:
            from .theorems import thread_slice
            plans: dict[TheoremId, PlanOf] = {
                TheoremId.THREAD_SLICE: lambda: thread_slice(check, instruction, context.suspects, context.info)}
            return Planned(plans)
        return [Group(SLICE_ORDER, build)]


SLICE = register(SliceKind())
