"""The HTML page of `draw` in a real headless browser (Debian's chromium, installed by the README's test command
where the system allows it): it renders without script errors, and a screenshot shows the colours the cells
have.  Without a browser the test reports itself skipped, with the reason."""
from __future__ import annotations

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


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
