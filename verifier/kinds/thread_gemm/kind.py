"""The thread-gemm kind, registered: a block's GEMM that CuTe's `gemm` computes one UniversalFMA a product on each
thread's own partitions (theorem 44), and the threads' fills of the shared tiles it reads (theorem 45, where a fill is
stated).  The C++ reader writes one for each such gemm it follows back to its partitions and fills."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import (THREAD_GEMM_KEYS, THREAD_GEMM_KIND, ThreadGemmCheck, read_thread_gemm_check,
                     reads_thread_gemm_check)

THREAD_GEMM_PRECEDENCE = 0     # asked first: `thread_gemm:` makes a thread-gemm check whatever else it names


class ThreadGemmKind(WithoutPictures):
    """Theorems 44 and 45 on a block's GEMM on the threads' own partitions."""
    explain_what = ("a thread-gemm check: its report gives the thread, C value and k whose product pairs the wrong "
                    "elements, or the fill's thread and value that copies an element to another coordinate")
    name = THREAD_GEMM_KIND
    precedence = THREAD_GEMM_PRECEDENCE
    keys: tuple[str, ...] = THREAD_GEMM_KEYS
    summary_line = ("a block's GEMM on the threads' own partitions multiplies A (m, k) by B (n, k) into every C (m, n) "
                    "(44), from shared tiles the threads fill with the global tiles' elements (45), once for every "
                    "k-tile (46)")
    needs_result_to_draw = False
    atomless = True          # its check names no atom: the threads' partitions as index maps

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_thread_gemm_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_thread_gemm_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, ThreadGemmCheck)
        filled = check.a.fill is not None or check.b.fill is not None
        loop = check.k_loop
        ids = (TheoremId.GEMM_THREAD_PRODUCTS,) + ((TheoremId.GEMM_SHARED_FILL,) if filled else ()) + \
            ((TheoremId.GEMM_K_TILE_LOOP,) if loop is not None else ())

        def build() -> Planned:
            from .theorems import k_tile_loop, shared_fill, thread_products
            plans: dict[TheoremId, PlanOf] = {TheoremId.GEMM_THREAD_PRODUCTS: lambda: thread_products(check)}
            if filled:
                plans[TheoremId.GEMM_SHARED_FILL] = lambda: shared_fill(check)
            if loop is not None:
                plans[TheoremId.GEMM_K_TILE_LOOP] = lambda: k_tile_loop(loop)
            return Planned(plans)
        return [Group(ids, build)]


THREAD_GEMM = register(ThreadGemmKind())
