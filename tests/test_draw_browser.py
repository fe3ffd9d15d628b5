"""The HTML page of `draw` in a real headless browser (Debian's chromium, installed by the README's test command
where the system allows it): it renders without script errors, and a screenshot shows the colours the cells
have.  Without a browser the test reports itself skipped, with the reason."""
from __future__ import annotations

import html
import json
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from verifier.commands.cli import main

ROOT = Path(__file__).parent.parent
BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no chromium on this machine (the README's test command "
                                                        "installs Debian's chromium where it may run apt-get)")
WINDOW = (1600, 1200)


def _chromium(*args: str) -> subprocess.CompletedProcess:
    assert BROWSER is not None
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--hide-scrollbars", f"--window-size={WINDOW[0]},{WINDOW[1]}", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module", autouse=True)
def browser_starts() -> None:
    """A browser that cannot render an empty page here says nothing about our page: skip, with its reason."""
    try:
        blank = _chromium("--dump-dom", "about:blank")
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"{BROWSER} does not start on this machine: {e}")
    if blank.returncode != 0 or "<html" not in blank.stdout:
        pytest.skip(f"{BROWSER} does not render about:blank here: {blank.stderr.strip()[-200:]}")


def _png_pixels(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """Width, height, bytes per pixel and the unfiltered rows of an 8-bit RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytes(width * bpp)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = bytes(line)
    return width, height, bpp, rows


def test_page_renders_and_cells_have_their_colours(tmp_path):
    page = tmp_path / "seed.html"
    assert main(["draw", str(ROOT / "specs" / "sm80_f16.yaml"), "--check", "ldsm_x4_a_kmajor", "-o", str(page)]) == 0
    dom = _chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-500:]
    body = re.search(r"<body([^>]*)>", dom.stdout)
    assert body is not None and 'data-status="ok"' in body.group(1), "the page's script did not finish"
    assert "data-errors" not in body.group(1), body.group(1)
    probes = json.loads(re.search(r'data-probes="([^"]*)"', body.group(1)).group(1).replace("&quot;", '"'))
    assert len(probes) == 3
    shot = tmp_path / "seed.png"
    run = _chromium(f"--screenshot={shot}", page.as_uri())
    assert run.returncode == 0 and shot.exists(), run.stderr[-500:]
    width, height, bpp, rows = _png_pixels(shot.read_bytes())
    assert (width, height) == WINDOW
    for x, y, fill in probes:
        pixel = rows[y][x * bpp:x * bpp + 3]
        want = bytes.fromhex(fill[1:])
        assert max(abs(p - w) for p, w in zip(pixel, want)) <= 2, (x, y, fill, pixel.hex())


def test_the_html_report_renders(tmp_path):
    report = tmp_path / "report.html"
    assert main(["prove", str(ROOT / "specs" / "sm80_f16.yaml"), "--format", "html", "-o", str(report)]) == 0
    dom = _chromium("--dump-dom", report.as_uri())
    body = re.search(r"<body([^>]*)>", dom.stdout)
    assert body is not None and 'data-status="ok"' in body.group(1) and "data-errors" not in body.group(1)


def _marks_of(page_path: Path) -> list[dict]:
    dom = _chromium("--dump-dom", page_path.as_uri())
    assert dom.returncode == 0, dom.stderr[-500:]
    body = re.search(r"<body([^>]*)>", dom.stdout)
    assert body is not None and 'data-status="ok"' in body.group(1) and "data-errors" not in body.group(1)
    raw = re.search(r'data-marks="([^"]*)"', body.group(1))
    assert raw is not None
    return json.loads(html.unescape(raw.group(1)))


def _rgb(colour: str) -> str:
    r, g, b = bytes.fromhex(colour[1:])
    return f"rgb({r}, {g}, {b})"


def test_every_mistake_s_page_outlines_its_counterexample(tmp_path):
    """The pictures of all of the catalog's mistakes that outline a cell, on one page, as the browser lays it
    out: every outline is drawn (a visible red or blue stroke on a cell), and each refuted theorem whose
    counterexample names a point has an outlined cell whose fields, read back from the page, show that point.
    Pictures a report leaves out for their size (more than MAX_CELLS cells) are left out here too, and so are those
    with no outline (half of the cells, nothing to read back; test_page_renders_and_cells_have_their_colours
    renders pictures whole); tests/test_draw.py checks every picture's marks."""
    from tests.picture_marks import agrees, elem_bytes, field_name, mistakes, pointed, report_figures
    from verifier.draw.figure import CONFLICT, EXPECTED
    from verifier.draw.html import page
    from verifier.kinds.cute_objects import ConfigurationRefused
    from verifier.report.pictures import MAX_CELLS
    cases, figs = [], []
    for spec, check, result in mistakes():
        try:
            drawn = report_figures(spec, check, result)
        except ConfigurationRefused:
            continue                          # refused by CuTe: no counterexample (tests/test_draw.py)
        if any(sum(len(p.cells) for p in f.panels) > MAX_CELLS for f in drawn):
            continue
        cases.append((check.name, result, [f.title for f in drawn], elem_bytes(check)))
        figs += [f for f in drawn if any(c.outline for p in f.panels for c in p.cells)]
    out = tmp_path / "mistakes.html"
    out.write_text(page("the catalog's mistakes", figs), encoding="utf-8")
    marks = _marks_of(out)
    assert len(marks) >= len(cases)
    for m in marks:
        assert m["stroke"] in (_rgb(CONFLICT), _rgb(EXPECTED)) and m["width"] == 3, m
        assert m["box"][2] > 0 and m["box"][3] > 0, m
    for name, result, titles, size in cases:
        mine = [{field_name(k): v for k, v in m["info"].items()} for m in marks if m["figure"] in titles]
        for theorem, witness in pointed(result):
            assert any(agrees(info, witness, size) for info in mine), (name, theorem.number, witness.point)


def test_a_counterexample_outline_is_red_on_screen(tmp_path):
    """The screenshot shows the red stroke where the page says the first outline is."""
    out = tmp_path / "mistake.html"
    assert main(["draw", str(ROOT / "specs" / "mistakes.yaml"), "--check", "swizzle_splits_16B_rows", "--view",
                 "copy", "-o", str(out)]) == 0
    marks = _marks_of(out)
    assert marks
    x, y, w, h = marks[0]["box"]
    assert x + w < WINDOW[0] and y + h < WINDOW[1], "the first outline is off the screenshot"
    shot = tmp_path / "mistake.png"
    run = _chromium(f"--screenshot={shot}", out.as_uri())
    assert run.returncode == 0 and shot.exists(), run.stderr[-500:]
    _, _, bpp, rows = _png_pixels(shot.read_bytes())
    py = round(y + h / 2)                              # the stroke's left edge (3 px about x), half way down
    pixels = [rows[py][px * bpp:px * bpp + 3] for px in range(int(x) - 1, int(x) + 2)]
    assert any(p[0] > 170 and p[1] < 60 and p[2] < 60 for p in pixels), [p.hex() for p in pixels]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
