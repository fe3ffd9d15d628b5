"""The buffer kind, registered: one shared-memory allocation, the view its writer stores through and the view its
reader loads through; theorem 23 (producer/consumer agreement)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...specfile.vocabulary import BUFFER_KEYS
from ...theorems.catalog import TheoremId
from ..base import Context, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, write_chain
from ..registry import register
from .config import BufferCheck, read_buffer_check, reads_buffer_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult

BUFFER_PRECEDENCE = 1        # after TMEM: a `buffer:` key makes a buffer check whatever else it names
BYTES_VIEW = View.BYTES.value       # the allocation's bytes as written and as read (views.py)


class BufferKind:
    """Theorem 23 on a shared buffer: the writer's stores distinct and inside the allocation, the reader's loads
    inside it and at the writer's bytes, for every allowed base address."""
    name = CheckKind.BUFFER.value
    precedence = BUFFER_PRECEDENCE
    keys: tuple[str, ...] = BUFFER_KEYS
    summary_line = "a shared buffer's writer and reader views (an importer writes them): theorem 23"
    needs_result_to_draw = True           # the counterexample's bytes are outlined
    scaled_views = (BYTES_VIEW,)             # at most MAX_LINES lines of the allocation

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_buffer_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_buffer_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, BufferCheck)

        def build() -> Planned:
            from .chain import BufferChain
            from .theorems import agreement, build_buffer, unwritten
            if check.writer is None:           # nothing writes the reader's bytes: no chain to trace
                return Planned({TheoremId.BUFFER_AGREEMENT: lambda: unwritten(check, context.suspects)})
            setup = build_buffer(check)
            plans: dict[TheoremId, PlanOf] = {TheoremId.BUFFER_AGREEMENT: lambda: agreement(setup, context.suspects)}
            return Planned(plans, BufferChain(setup))

        return [Group((TheoremId.BUFFER_AGREEMENT,), build)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """--coord C0,C1,... [--base B]: the element's byte on each side."""
        from .chain import BufferChain
        from .theorems import build_buffer
        assert isinstance(check, BufferCheck)
        name = safe(check.name)
        if check.writer is None:
            raise ExplainError(f"check '{name}' is a buffer nothing writes: no element has a byte to trace")
        setup = build_buffer(check)
        sizes = [v.size for v in setup.coords]
        coord = request.coord
        if coord is None or len(coord) != len(sizes) or not all(0 <= c < n for c, n in zip(coord, sizes)):
            raise ExplainError(f"check '{name}' is a buffer check: give --coord with {len(sizes)} coordinates in "
                               + " x ".join(f"[0,{n})" for n in sizes) + " (and --base BYTES)")
        if request.base % check.align:
            raise ExplainError(f"--base {request.base:#x} is not a multiple of the allocation's alignment "
                               f"{check.align}")
        title, lines = BufferChain(setup).element_lines(tuple(coord), request.base)
        out.write(f"{request.path}: check {name}: {check.summary()}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        assert isinstance(check, BufferCheck)
        return (BYTES_VIEW,) if check.writer is not None else ()     # a buffer nothing writes: nothing to draw

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .theorems import build_buffer
        from .views import buffer_figure
        assert isinstance(check, BufferCheck)
        return [buffer_figure(build_buffer(check), result) for view in views
                if view == BYTES_VIEW and check.writer is not None]

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        return self.views(check)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


BUFFER = register(BufferKind())
