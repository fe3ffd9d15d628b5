"""Pictures of refuted checks for the HTML and Markdown reports: which views show a failure, drawn with
`verifier.draw`.  Drawing is description: a picture that cannot be made is replaced by a line saying why, and
never changes a verdict."""
from __future__ import annotations

from dataclasses import dataclass

from ..draw.figure import Figure
from ..specfile.model import CheckKind, CheckSpec, Spec
from ..theorems.catalog import TheoremId
from ..theorems.result import CheckResult

MAX_CELLS = 4096          # larger pictures are left out of reports (draw them with `python -m verifier draw`)
MAX_PICTURE_CELLS = 32768 # all pictures of one report together


@dataclass
class Picture:
    check: str
    view: str
    figure: Figure | None
    note: str = ""


def _views(spec_check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
    if spec_check.kind is not CheckKind.TILED:
        return ("mma",)
    failed = {t.id for t in result.failures()}
    if TheoremId.SMEM_BANK_CONFLICTS in failed:
        return ("banks",)
    if TheoremId.SMEM_INJECTIVE in failed or TheoremId.SMEM_IN_BOUNDS in failed:
        return ("smem",)
    return ("copy", "smem")


def pictures(pairs: list[tuple[Spec, CheckSpec]], results: list[CheckResult]) -> list[Picture]:
    """Pictures of every refuted check, in report order."""
    from ..draw.views import View
    from ..commands.draw import figures
    out: list[Picture] = []
    total = 0
    for (spec, check), r in zip(pairs, results):
        if not r.failures():
            continue
        for view in _views(check, r):
            try:
                figs = figures(check, spec, (View(view),), result=r)
            except Exception as e:  # noqa: BLE001 - a picture is description: its failure is said, not raised
                out.append(Picture(r.name, view, None, f"no picture: {type(e).__name__}: {e}"))
                continue
            for fig in figs:
                cells = sum(len(p.cells) for p in fig.panels)
                if cells > MAX_CELLS or total + cells > MAX_PICTURE_CELLS:
                    why = f"{cells} cells" if cells > MAX_CELLS else "the report holds enough pictures"
                    out.append(Picture(r.name, view, None, f"picture left out ({why}): draw it with python -m "
                                                           f"verifier draw --check {r.name} --view {view}"))
                else:
                    total += cells
                    out.append(Picture(r.name, view, fig))
    return out
