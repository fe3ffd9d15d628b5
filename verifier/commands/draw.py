"""`python -m verifier draw SPEC --check NAME [--view mma|copy|smem|banks] [-o FILE.svg|FILE.html]`."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..cute.mma import TiledMMA
from ..cute.operand import Operand
from ..draw.figure import Figure
from ..draw.html import page
from ..draw.svg import render
from ..draw.views import View, banks_figure, copy_figure, mma_figure, smem_figure, tmem_figure
from ..outcome import ExitCode, Status
from ..report import text
from ..specfile import CheckSpec, Spec, SpecError, load_specs
from ..specfile.model import CheckKind
from ..theorems.catalog import TheoremId
from ..kinds.tiled.chain import OperandChain
from ..theorems.claims import TheoremResult
from ..engine.runner import CheckResult, run_check
from ..theorems.claims import Unsupported
from ..kinds.tiled.setup import ConfigurationRefused, build_tiled, mma_atom
from ..kinds.tmem.theorems import build_tmem

VIEWS_OF = {CheckKind.MMA: (View.MMA,), CheckKind.TILED: (View.MMA, View.COPY, View.SMEM, View.BANKS),
            CheckKind.GMMA: (View.MMA,), CheckKind.COPY: (), CheckKind.TMEM: (View.TMEM,)}


class DrawError(Exception):
    """A request that cannot be drawn: one line."""


def _tiled_mma(check: CheckSpec, spec: Spec) -> TiledMMA:
    from ..kinds.tiled.setup import _atom_layout
    atom = spec.mma_atoms[check.mma]   # type: ignore[index]
    return TiledMMA(mma_atom(atom), _atom_layout(check.atom_layout), check.permutation)


def _failure(results: list[TheoremResult], tid: TheoremId) -> dict[str, int] | None:
    t = next((t for t in results if t.id is tid and t.status is Status.REFUTED), None)
    item = t.first_failure() if t else None
    return dict(item.witness.values, **item.witness.point) if item and item.witness else None


def figures(check: CheckSpec, spec: Spec, views: tuple[View, ...], result: CheckResult | None = None) -> list[Figure]:
    """The requested views of one check; a refuted check's counterexample outlined where it names cells (`result`:
    the check's result when it was proved already)."""
    out: list[Figure] = []
    if result is None and check.kind is CheckKind.TILED:
        result = run_check(spec, check)
    theorems = result.theorems if result else []
    setup = chain = None
    if check.kind is CheckKind.TILED and set(views) & {View.COPY, View.SMEM, View.BANKS}:
        setup = build_tiled(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy])  # type: ignore[index]
        chain = OperandChain(setup)
    for view in views:
        if view is View.TMEM:
            tmem = build_tmem(check, spec.copy_atoms[check.copy])   # type: ignore[index]
            if isinstance(tmem, Unsupported):
                raise DrawError(f"check '{text.safe(check.name)}' cannot be drawn: {tmem.missing}")
            out.append(tmem_figure(tmem))
        elif view is View.MMA:
            out.append(mma_figure(check.name, _tiled_mma(check, spec)))
        elif view is View.COPY and setup is not None:
            out.append(copy_figure(setup))
        elif view is View.SMEM and setup is not None:
            outlined = set()
            w = _failure(theorems, TheoremId.SMEM_INJECTIVE)
            a, b = Operand.of(setup.operand).axes
            if w is not None and {a, b, f"{a}2", f"{b}2"} <= set(w):
                outlined = {(w[a], w[b]), (w[f"{a}2"], w[f"{b}2"])}
            fig = smem_figure(check.name, check.smem, setup.value_bits, (a, b), outlined)
            if outlined:
                fig.caption.append(f"counterexample (smem.injective): {sorted(outlined)} share one element")
            out.append(fig)
        elif view is View.BANKS and setup is not None and chain is not None:
            w = _failure(theorems, TheoremId.SMEM_BANK_CONFLICTS)
            lanes = (w["lane"], w["lane2"]) if w and "lane" in w else ()
            fig = banks_figure(setup, chain, lanes)
            if w and lanes:
                fig.caption.append(f"counterexample (smem.bank_conflicts): lanes {lanes[0]} and {lanes[1]} touch bank "
                                   f"{w['bank']}, words {w['word']} and {w['word2']}")
            out.append(fig)
    if result is not None:
        for t in result.failures():
            item = t.first_failure()
            if item is not None and item.witness is not None and item.witness.actual is not None:
                for fig in out:
                    fig.caption.append(f"refuted: theorem {t.number} {t.id.value}: expected {item.witness.expected}, "
                                       f"actual {item.witness.actual}")
    return out


def draw_main(path: str, check_name: str, view: str | None, output: str | None, allow_outside: bool = False,
              out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from .prove import select
    try:
        spec, check = select(load_specs([path], allow_outside=allow_outside), [check_name])[0]
        available = VIEWS_OF[check.kind]
        if not available:
            raise DrawError(f"check '{text.safe(check_name)}' names only a copy atom: there is no tile to draw")
        views = (View(view),) if view else available
        if views[0] not in available:
            raise DrawError(f"check '{text.safe(check_name)}' has no {views[0].value} view (it has "
                            f"{', '.join(v.value for v in available)})")
        html = output is not None and output.endswith((".html", ".htm"))
        if not html and view is None:
            views = available[:1]
        figs = figures(check, spec, views)
        body = page(f"{check.name} ({spec.path})", figs) if html else render(figs[0])
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    except (DrawError, ConfigurationRefused) as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    if output is None:
        out.write(body)
        return ExitCode.OK
    try:
        Path(output).write_text(body, encoding="utf-8")
    except OSError as e:
        sys.stderr.write(f"error: cannot write {output}: {e.strerror}\n")
        return ExitCode.BAD_INPUT
    return ExitCode.OK


__all__ = ["draw_main", "figures", "View"]
