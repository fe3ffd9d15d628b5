"""Pictures of refuted checks for the HTML and Markdown reports: which views show a failure, drawn with
`verifier.draw`.  Drawing is description: a picture that cannot be made is replaced by a line saying why, and
never changes a verdict."""
from __future__ import annotations

from dataclasses import dataclass

from ..draw.figure import Figure
from ..kinds.cute_objects import ConfigurationRefused
from ..kinds.registry import kind_of
from ..specfile.model import CheckSpec, Spec
from ..theorems.result import CheckResult

MAX_CELLS = 4096          # larger pictures are left out of reports (draw them with `python -m verifier draw`)
MAX_PICTURE_CELLS = 32768 # all pictures of one report together


@dataclass
class Picture:
    check: str
    view: str
    figure: Figure | None
    note: str = ""


def figures(spec: Spec, check: CheckSpec, views: tuple[str, ...], result: CheckResult | None = None) -> list[Figure]:
    """The requested views of one check, drawn by its kind; with the check's `result`, its counterexample outlined
    where it names cells and every refuted theorem's witness in the captions."""
    out = kind_of(check).figures(spec, check, views, result)
    if result is not None:
        for t in result.failures():
            item = t.first_failure()
            if item is not None and item.witness is not None and item.witness.actual is not None:
                for fig in out:
                    fig.caption.append(f"refuted: theorem {t.number} {t.id.value}: expected {item.witness.expected}, "
                                       f"actual {item.witness.actual}")
    return out


def pictures(pairs: list[tuple[Spec, CheckSpec]], results: list[CheckResult]) -> list[Picture]:
    """Pictures of every refuted check, in report order."""
    out: list[Picture] = []
    total = 0
    for (spec, check), r in zip(pairs, results):
        if not r.failures():
            continue
        for view in kind_of(check).report_views(check, r):
            try:
                figs = figures(spec, check, (view,), result=r)
            except ConfigurationRefused as e:    # nothing was built, so nothing is drawn: the refusal is the finding
                out.append(Picture(r.name, view, None, f"no picture: CuTe refuses the configuration ({e.rule})"))
                continue
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
