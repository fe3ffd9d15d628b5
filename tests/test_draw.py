"""`python -m verifier draw`: deterministic SVG (golden files in tests/data/draw, regenerated with
`python tests/test_draw.py --regenerate`), the views a check has, its counterexample outlined, and one HTML page.
The page is opened in a real headless browser by tests/test_draw_browser.py."""
from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verifier.commands.cli import main  # noqa: E402

GOLDEN = Path(__file__).parent / "data" / "draw"
# (golden file, spec, check, view)
CASES = [("seed_mma.svg", "specs/sm80_f16.yaml", "ldsm_x4_a_kmajor", "mma"),
         ("seed_copy.svg", "specs/sm80_f16.yaml", "ldsm_x4_a_kmajor", "copy"),
         ("seed_smem.svg", "specs/sm80_f16.yaml", "ldsm_x4_a_kmajor", "smem"),
         ("seed_banks.svg", "specs/sm80_f16.yaml", "ldsm_x4_a_kmajor", "banks"),
         ("swizzled_smem.svg", "specs/catalog/sm80_f16.yaml", "ldsm_n_x4_a_kmajor_64x64", "smem"),
         ("unswizzled_banks.svg", "specs/mistakes.yaml", "ldsm_unswizzled_kmajor_64x64_bank_conflicts", "banks")]


def draw(tmp_path: Path, spec: str, check: str, view: str | None, suffix: str = ".svg") -> str:
    out = tmp_path / f"out{suffix}"
    args = ["draw", str(ROOT / spec), "--check", check, "-o", str(out)] + (["--view", view] if view else [])
    assert main(args) == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("golden,spec,check,view", CASES, ids=[c[0] for c in CASES])
def test_svg_matches_its_golden_file(tmp_path, golden, spec, check, view):
    got = draw(tmp_path, spec, check, view)
    with gzip.open(GOLDEN / (golden + ".gz"), "rt", encoding="utf-8") as f:
        want = f.read()
    assert got == want, f"{golden} changed: run python tests/test_draw.py --regenerate and look at the pictures"
    assert draw(tmp_path, spec, check, view) == got      # deterministic


def test_cells_follow_cute_s_conventions(tmp_path):
    svg = draw(tmp_path, "specs/sm80_f16.yaml", "ldsm_x4_a_kmajor", "mma")
    # the A fragment of mma.m16n8k16: T0 holds A(0,0) as V0 and A(0,1) as V1; thread 0's colour is CuTe's first
    first = re.search(r'<g class="cell" data-row="0" data-col="0" data-thread="0" data-value="0"[^>]*><rect [^>]*'
                      r'fill="#afafff"/><text [^>]*>T0</text><text [^>]*>V0</text>', svg)
    second = re.search(r'<g class="cell" data-row="0" data-col="1" data-thread="0" data-value="1"', svg)
    assert first is not None and second is not None
    assert 'data-title="A (m, k)"' in svg and 'data-title="B (k, n)"' in svg and 'data-title="C (m, n)"' in svg


def test_replicated_owners_are_counted(tmp_path):
    svg = draw(tmp_path, "specs/catalog/atoms_sm90_gmma.yaml",
               "mma_SM90_64x8x16_F32F16F16_SS_GMMA_Major_K_GMMA_Major_K", "mma")
    assert "T0 x128" in svg and 'data-owners="128"' in svg


def test_a_refuted_check_draws_its_counterexample(tmp_path):
    svg = draw(tmp_path, "specs/mistakes.yaml", "ldsm_unswizzled_kmajor_64x64_bank_conflicts", "banks")
    assert svg.count('class="outline"') == 16          # lanes 0 and 1: two rows of 8 halves
    assert "counterexample (smem.bank_conflicts): lanes 0 and 1 touch bank 0, words 0 and 32" in svg


def test_html_page_holds_every_view_and_no_external_resource(tmp_path):
    html = draw(tmp_path, "specs/sm80_f16.yaml", "ldsm_x4_a_kmajor", None, ".html")
    assert html.count("<svg ") == 4 and "data-status" in html and "getBoundingClientRect" in html
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_a_copy_only_check_has_nothing_to_draw(tmp_path, capsys):
    spec = tmp_path / "c.yaml"
    spec.write_text(f"version: 1\nname: c\ninclude: [{ROOT}/specs/atoms/sm75.yaml]\nchecks:\n  copy_only:\n"
                    "    copy: SM75_U32x4_LDSM_N\n    value_type: half_t\n")
    assert main(["draw", str(spec), "--allow-outside", "--check", "copy_only"]) == 2
    err = capsys.readouterr().err
    assert "has nothing to draw: it is a copy atom alone" in err and err.count("\n") == 1


def test_unknown_checks_and_views_are_bad_input(capsys):
    assert main(["draw", str(ROOT / "specs" / "sm80_f16.yaml"), "--check", "no_such_check"]) == 2
    assert "no_such_check" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["draw", str(ROOT / "specs" / "sm80_f16.yaml"), "--check", "ldsm_x4_a_kmajor", "--view", "tma"])
    assert info.value.code == 2 and "invalid choice" in capsys.readouterr().err
    assert main(["draw", str(ROOT / "specs" / "catalog" / "atoms_sm90.yaml"), "--check",
                 "mma_SM90_16x8x4_F64F64F64F64_TN", "--view", "banks"]) == 2
    assert "has no banks view (it has mma)" in capsys.readouterr().err


def regenerate() -> None:
    import tempfile
    GOLDEN.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        for golden, spec, check, view in CASES:
            text = draw(Path(d), spec, check, view)
            with open(GOLDEN / (golden + ".gz"), "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0,
                                                                          filename="") as g:
                g.write(text.encode("utf-8"))
            print(f"wrote tests/data/draw/{golden}.gz")


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    regenerate()


def test_prove_html_report_draws_refuted_checks(tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["prove", str(ROOT / "specs" / "sm80_f16.yaml"), "--format", "html", "-o", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<table>" in html and "seed_bank_conflicts" in html and "mistake_mutated_alayout_stride" in html
    section = html[html.index("<code>seed_bank_conflicts</code>: refuted as documented"):]
    assert section.index("<svg ") < section.index("</section>")            # its picture is in its section
    assert "counterexample (smem.bank_conflicts): lanes 0 and 4" in section
    assert "8 refuted as documented" in capsys.readouterr().out              # the text summary still printed


def test_markdown_report_links_its_pictures(tmp_path):
    out = tmp_path / "report.md"
    assert main(["prove", str(ROOT / "specs" / "sm80_f16.yaml"), "--format", "markdown", "-o", str(out)]) == 0
    md = out.read_text(encoding="utf-8")
    pictures = sorted(p.name for p in (tmp_path / "report_pictures").iterdir())
    assert "seed_bank_conflicts_banks.svg" in pictures
    assert "![seed_bank_conflicts: banks](report_pictures/seed_bank_conflicts_banks.svg)" in md
    assert all(f"report_pictures/{name}" in md for name in pictures)
