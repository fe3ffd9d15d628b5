"""Figures as one self-contained HTML page: the SVGs inline, hovering a cell shows its fields (thread, value,
coordinate, offset, bank) in a panel; no external resource.  A page that runs without a script error marks
`<body data-status="ok">`; an error is recorded in `data-errors` (the browser test reads both)."""
from __future__ import annotations

from html import escape

from .figure import Figure
from .svg import render as render_svg

STYLE = """
body { font-family: system-ui, sans-serif; margin: 16px; }
#info { position: fixed; top: 8px; right: 8px; min-width: 220px; background: #fffff0; border: 1px solid #888;
        padding: 6px 10px; font: 12px monospace; white-space: pre; }
.cell:hover rect { stroke-width: 2; }
svg { display: block; }
section { margin-bottom: 24px; }
"""

SCRIPT = """
window.addEventListener('error', function (e) {
  var n = document.body.getAttribute('data-errors') || '';
  document.body.setAttribute('data-errors', n + e.message + ';');
});
document.addEventListener('DOMContentLoaded', function () {
  var info = document.getElementById('info');
  document.querySelectorAll('g.cell').forEach(function (g) {
    g.addEventListener('mouseenter', function () {
      var lines = [];
      for (var i = 0; i < g.attributes.length; i++) {
        var a = g.attributes[i];
        if (a.name.indexOf('data-') === 0) lines.push(a.name.substring(5) + ' ' + a.value);
      }
      info.textContent = lines.join('\\n');
    });
  });
  var probes = [];
  document.querySelectorAll('g.cell').forEach(function (g, i) {
    if (i < 3) {
      var r = g.querySelector('rect').getBoundingClientRect();
      probes.push([Math.round(r.left + r.width / 4), Math.round(r.top + r.height / 4),
                   g.querySelector('rect').getAttribute('fill')]);
    }
  });
  document.body.setAttribute('data-probes', JSON.stringify(probes));   // where a screenshot shows which colour
  var marks = [];                                                       // every outlined cell, as drawn
  document.querySelectorAll('rect.outline').forEach(function (o) {
    var panel = o.closest('g.panel'), svg = o.closest('svg');
    var cell = panel.querySelector('g.cell[data-row="' + o.getAttribute('data-row') + '"][data-col="' +
                                   o.getAttribute('data-col') + '"]');
    var info = {};
    if (cell) for (var i = 0; i < cell.attributes.length; i++) {
      var a = cell.attributes[i];
      if (a.name.indexOf('data-') === 0) info[a.name.substring(5)] = a.value;
    }
    var r = o.getBoundingClientRect(), st = window.getComputedStyle(o);
    marks.push({figure: svg.getAttribute('data-figure'), panel: panel.getAttribute('data-title'),
                stroke: st.stroke, width: parseFloat(st.strokeWidth), box: [r.left, r.top, r.width, r.height],
                info: info});
  });
  document.body.setAttribute('data-marks', JSON.stringify(marks));
  document.body.setAttribute('data-status', 'ok');
});
"""


def page(title: str, figures: list[Figure]) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{escape(title)}</title>", f"<style>{STYLE}</style>", f"<script>{SCRIPT}</script>", "</head>",
             "<body>", f"<h1>{escape(title)}</h1>", '<div id="info">hover a cell</div>']
    for fig in figures:
        parts += ["<section>", render_svg(fig), "</section>"]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
