"""`python -m verifier draw SPEC --check NAME [--view mma|copy|smem|banks|tmem] [-o FILE.svg|FILE.html]`: the check's
views, drawn by its kind (verifier/kinds/*/kind.py), as SVG or one self-contained HTML page."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..draw.html import page
from ..draw.svg import render
from ..engine.proving import select
from ..kinds.base import DrawError
from ..kinds.cute_objects import ConfigurationRefused
from ..kinds.registry import kind_of
from ..outcome import ExitCode
from ..report.failures import safe
from ..report.pictures import figures
from ..specfile import SpecError, load_specs
from ..specfile.family import FamilyCheck, point_text
from ..symbolic.procedure import Settings
from ..outputs import overwrites_input


MAX_DRAW_CELLS = 16384      # 128 x 128 elements: a larger tile is refused (a 256 x 256 page is 35 MB, 4096^2 hangs)


def _tile_elements(check: object) -> int:
    """Elements of the shared tile a check's pictures draw (0 when it has none)."""
    from ..algebra.layout import Layout
    from ..algebra.swizzle import ComposedLayout
    smem = getattr(check, "smem", None)
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    return int(inner.size()) if isinstance(inner, Layout) else 0


def draw_main(path: str, check_name: str, view: str | None, output: str | None, allow_outside: bool = False,
              out: TextIO | None = None, member: str | None = None) -> int:
    out = out or sys.stdout
    try:
        # only the named check is built (its file's others are named, not read), as `prove --check` loads
        spec, check = select(load_specs([path], allow_outside=allow_outside, only=[check_name]), [check_name])[0]
        family_result = None
        family_caption = ""
        if isinstance(check, FamilyCheck):       # a family draws one member: --member's, else its result's
            from ..engine.family import member_check
            from ..engine.runner import prove_member
            chosen, family_result = member_check(spec, check, member, Settings(), prove_member)
            family_caption = f"family {check.name}, member {point_text(chosen.point)}"
            check = chosen.check
        elif member is not None:
            raise DrawError(f"check '{safe(check_name)}' is not a family: --member names a family's member")
        kind = kind_of(check)
        available = kind.views(check)
        if not available:
            raise DrawError(f"check '{safe(check_name)}' has nothing to draw: it is {kind.summary_line}")
        views = (view,) if view else available
        if views[0] not in available:
            raise DrawError(f"check '{safe(check_name)}' has no {views[0]} view (it has "
                            f"{', '.join(available)})")
        html = output is not None and output.endswith((".html", ".htm"))
        if not html and view is None:
            views = available[:1]
        scaled = getattr(kind, "scaled_views", ())     # views drawn at a bounded size whatever the tile's
        elements = _tile_elements(check)
        notice = ""      # said once the page is drawn (a configuration CuTe refuses is one line: its rule)
        if elements > MAX_DRAW_CELLS and view is None and any(v in scaled for v in views):
            left = [v for v in views if v not in scaled]   # a page of every view: the bounded ones, the rest said
            views = tuple(v for v in views if v in scaled)
            if left:
                notice = (f"draw: {', '.join(left)} left out: the shared tile has {elements} elements "
                          f"(at most {MAX_DRAW_CELLS})\n")
        if elements > MAX_DRAW_CELLS and not set(views) <= set(scaled):
            more = f" (its {', '.join(scaled)} view is drawn at a bounded size: --view {scaled[0]})" if scaled else ""
            raise DrawError(f"check '{safe(check_name)}' has a shared tile of {elements} elements; draw draws at "
                            f"most {MAX_DRAW_CELLS} (128 x 128): draw a smaller tile of the same layout{more}")
        if family_result is not None:
            figs = figures(spec, check, views, family_result)
            for fig in figs:
                fig.caption.insert(0, family_caption)
        elif kind.needs_result_to_draw:    # its counterexample is outlined
            from ..engine.runner import run_check
            figs = figures(spec, check, views, run_check(spec, check))
        else:
            figs = figures(spec, check, views)
        body = page(f"{check.name} ({spec.path})", figs) if html else render(figs[0])
        sys.stderr.write(notice)
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    except (DrawError, ConfigurationRefused) as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    if output is None:
        out.write(body)
        return ExitCode.OK
    clash = overwrites_input(output, [spec.path, *spec.closure])
    if clash is not None:
        sys.stderr.write(f"error: {clash}\n")
        return ExitCode.BAD_INPUT
    try:
        Path(output).write_text(body, encoding="utf-8")
    except OSError as e:
        sys.stderr.write(f"error: cannot write {output}: {e.strerror}\n")
        return ExitCode.BAD_INPUT
    return ExitCode.OK


__all__ = ["draw_main"]
