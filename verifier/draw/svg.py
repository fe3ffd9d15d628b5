"""A Figure as SVG: deterministic text (the same figure gives the same bytes), every cell a <g> carrying its
fields as data attributes (the HTML page shows them on hover); fonts and strokes set once in a <style>."""
from __future__ import annotations

import re
from html import escape

from .figure import Figure, Panel

_ATTR_NAME = re.compile(r"[^A-Za-z0-9_-]+")     # an info name as an XML attribute name (data-...)

CELL_W, CELL_H = 44, 30
MARGIN = 36          # room for the axis indices
TITLE_H = 28
CAPTION_LINE = 16
STYLE = ("<style>text{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}"
         ".l{font-size:9px;text-anchor:middle}.i{font-size:9px;fill:#555}rect.k{stroke:#000;stroke-width:.5}</style>")


def _attr(text: str) -> str:
    return escape(text, quote=True)


def _panel(p: Panel, ox: int, oy: int) -> list[str]:
    out = [f'<g class="panel" data-title="{_attr(p.title)}">',
           f'<text x="{ox}" y="{oy - 20}" font-size="13" font-weight="bold">{escape(p.title)}</text>']
    for r in range(p.rows):
        out.append(f'<text class="i" x="{ox - 4}" y="{oy + r * CELL_H + CELL_H // 2 + 4}" text-anchor="end">{r}</text>')
    for c in range(p.cols):
        out.append(f'<text class="i" x="{ox + c * CELL_W + CELL_W // 2}" y="{oy - 6}" text-anchor="middle">{c}</text>')
    out.append(f'<text x="{ox - 26}" y="{oy - 6}" font-size="10" fill="#555">'
               f'{escape(p.row_axis)}\\{escape(p.col_axis)}</text>')
    for cell in sorted(p.cells, key=lambda c: (c.row, c.col)):
        x, y = ox + cell.col * CELL_W, oy + cell.row * CELL_H
        data = " ".join(f'data-{_ATTR_NAME.sub("-", k).strip("-")}="{_attr(v)}"' for k, v in cell.info)
        lines = cell.label.split("\n")
        mid = y + CELL_H // 2 + 4 - (len(lines) - 1) * 5.5
        texts = "".join(f'<text class="l" x="{x + CELL_W // 2}" y="{mid + i * 11:g}">{escape(line)}</text>'
                        for i, line in enumerate(lines))
        rect = f'<rect class="k" x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{cell.fill}"/>'
        mark = f' data-mark="{_attr(cell.mark)}"' if cell.outline else ""
        out.append(f'<g class="cell" data-row="{cell.row}" data-col="{cell.col}" {data}{mark}>{rect}{texts}</g>')
    for cell in sorted(p.cells, key=lambda c: (c.row, c.col)):   # outlines last: on top of the neighbours
        if cell.outline:
            x, y = ox + cell.col * CELL_W, oy + cell.row * CELL_H
            out.append(f'<rect class="outline" data-row="{cell.row}" data-col="{cell.col}" x="{x + 1}" '
                       f'y="{y + 1}" width="{CELL_W - 2}" height="{CELL_H - 2}" fill="none" '
                       f'stroke="{cell.outline}" stroke-width="3"/>')
    out.append("</g>")
    return out


def render(fig: Figure) -> str:
    longest = max([len(fig.title) * 9] + [len(c) * 7 for c in fig.caption])    # monospace, 14 / 11 px fonts
    width = max(2 * MARGIN + fig.width_cells * CELL_W + 8 * max(0, len(fig.panels) - 1), 2 * MARGIN + longest)
    caption_h = CAPTION_LINE * len(fig.caption)
    height = TITLE_H + 2 * MARGIN + fig.height_cells * CELL_H + caption_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" data-figure="{_attr(fig.title)}" width="{width}" '
           f'height="{height}" '
           f'viewBox="0 0 {width} {height}">',
           STYLE, f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{MARGIN}" y="18" font-size="14" font-weight="bold">{escape(fig.title)}</text>']
    for p in fig.panels:
        out += _panel(p, MARGIN + p.x * CELL_W, TITLE_H + MARGIN + p.y * CELL_H)
    base = TITLE_H + 2 * MARGIN + fig.height_cells * CELL_H
    for i, line in enumerate(fig.caption):
        out.append(f'<text x="{MARGIN}" y="{base + i * CAPTION_LINE}" font-size="11">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
