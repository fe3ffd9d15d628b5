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
from verifier.kinds.cute_objects import ConfigurationRefused  # noqa: E402
from verifier.kinds.registry import kind_of  # noqa: E402
from verifier.outcome import Status  # noqa: E402

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


def test_a_copy_atom_alone_draws_its_source_and_destination(tmp_path, capsys):
    spec = tmp_path / "c.yaml"
    spec.write_text(f"version: 1\nname: c\ninclude: [{ROOT}/specs/atoms/sm75.yaml]\nchecks:\n  copy_only:\n"
                    "    copy: SM75_U32x4_LDSM_N\n    value_type: half_t\n  tf32_t:\n"
                    "    copy: SM75_U16x8_LDSM_T\n    value_type: tfloat32_t\n")
    out = tmp_path / "copy.svg"
    assert main(["draw", str(spec), "--allow-outside", "--check", "copy_only", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    # ldmatrix .x4: 32 threads; each thread's source is one 16-byte row (8 halves), its destination 8 halves
    assert 'data-title="source: (thread, value) -&gt; element"' in svg
    assert svg.count('<g class="cell"') == 32 * 8 + 32 * 8
    assert "outline" not in svg.split("</style>")[1]      # nothing refuted, nothing outlined
    assert main(["draw", str(spec), "--allow-outside", "--check", "tf32_t"]) == 2
    err = capsys.readouterr().err
    assert "CopyOperation is not valid for Dst of ValType" in err and err.count("\n") == 1


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


# --- every catalog mistake's picture marks its counterexample ----------------------------------------------------

def _mistake_cases():
    from tests.picture_marks import mistakes
    return list(mistakes())


MISTAKES = _mistake_cases()


def test_the_catalog_documents_mistakes_of_every_kind():
    kinds = {type(kind_of(check)).__name__ for _, check, _ in MISTAKES}
    assert {"TiledKind", "SmemMmaKind", "TmemKind", "MmaAtomKind"} <= kinds, kinds
    assert len(MISTAKES) >= 40


@pytest.mark.parametrize("case", MISTAKES, ids=[c[1].name for c in MISTAKES])
def test_every_mistake_picture_marks_its_counterexample(case):
    """Each refuted theorem whose counterexample names a point has an outlined cell that shows that point (what the
    view drew in the cell, read against the witness); a refutation without a point (a fact about the whole
    configuration) is said in the caption; a configuration CuTe refuses has no counterexample to draw."""
    from tests.picture_marks import agrees, cell_fields, elem_bytes, pointed, report_figures
    spec, check, result = case
    try:
        figs = report_figures(spec, check, result)
    except ConfigurationRefused:     # draw's one line: CuTe refuses (some of) the configuration
        assert any(t.status is Status.REFUSED for t in result.failures()), "a refuted check drew nothing"
        return
    marked = [cell_fields(c) for f in figs for p in f.panels for c in p.cells if c.outline]
    for theorem, witness in pointed(result):
        assert any(agrees(info, witness, elem_bytes(check)) for info in marked), (
            f"theorem {theorem.number} {theorem.id.value}: witness {witness.point} {witness.expected} "
            f"{witness.actual} is not outlined (outlined: {marked[:3]})")
    text = " ".join(line for f in figs for line in f.caption)
    for t in result.failures():
        if t.status is Status.REFUTED:
            assert f"theorem {t.number}" in text or t.id.value in text, f"theorem {t.number} not in the caption"


def test_a_broken_mark_is_caught():
    """The agreement rule refutes a mark on the wrong cell: the seed's first mistake with a copy witness, checked
    against its neighbour cells."""
    from tests.picture_marks import agrees, cell_fields, pointed, report_figures
    spec, check, result = next(c for c in MISTAKES if c[1].name == "swizzle_splits_16B_rows")
    theorem, witness = next(pointed(result))
    cells = [c for f in report_figures(spec, check, result) for p in f.panels for c in p.cells]
    marked = [c for c in cells if c.outline]
    assert any(agrees(cell_fields(c), witness) for c in marked)
    unmarked = [c for c in cells if not c.outline]
    assert unmarked and not all(agrees(cell_fields(c), witness) for c in unmarked)
    assert sum(agrees(cell_fields(c), witness) for c in cells) < len(cells) // 8


@pytest.mark.parametrize("case", MISTAKES, ids=[c[1].name for c in MISTAKES])
def test_draw_renders_every_mistake(case, tmp_path, capsys):
    """`draw -o PAGE.html` of every catalog mistake: a page of its views (the unbounded ones of a tile over the
    size limit left out, said on standard error), or — for a configuration CuTe refuses — CuTe's rule in one
    line, exit 2; never a traceback."""
    from tests.picture_marks import pointed
    spec, check, result = case
    out = tmp_path / f"{check.name}.html"
    rc = main(["draw", spec.path, "--check", check.name, "-o", str(out)])
    err = capsys.readouterr().err
    if all(t.status is Status.REFUSED for t in result.failures()) or any(
            "a configuration CuTe compiles" == (t.first_failure().witness.expected if t.first_failure()
                                                and t.first_failure().witness else None)
            for t in result.failures()):
        assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, (check.name, err)
        return
    assert rc == 0, (check.name, err)
    text = out.read_text(encoding="utf-8")
    assert text.count("<svg") >= 1 and "</html>" in text
    if any(True for _ in pointed(result)):
        assert 'class="outline"' in text, check.name


def test_a_buffer_check_s_picture_outlines_where_the_writer_stored_and_the_reader_looks():
    """Theorem 23's pictures (tests/specs/buffer_agreement.yaml): every refuted check outlines the chunk holding
    the byte the writer stored the witness's element at (and, when it differs, the one the reader looks at); a
    verified check outlines nothing; a witness outside the allocation is still drawn (the lines are extended)."""
    from verifier.engine.runner import run_check
    from verifier.kinds.buffer.chain import BufferChain
    from verifier.kinds.buffer.theorems import build_buffer
    from verifier.specfile import load_specs
    [spec] = load_specs([ROOT / "tests" / "specs" / "buffer_agreement.yaml"], allow_outside=True)
    refuted = 0
    for check in spec.checks.values():
        result = run_check(spec, check)
        if check.writer is None:       # a buffer nothing writes (`unwritten`): refuted, no byte to draw
            assert result.failures() and kind_of(check).figures(spec, check, ("bytes",), result) == [], check.name
            continue
        [fig] = kind_of(check).figures(spec, check, ("bytes",), result)
        marked = [dict(c.info) for p in fig.panels for c in p.cells if c.outline]
        outlined = {(c.row, c.col) for c in fig.panels[0].cells if c.outline}
        first_line = int(re.search(r"line 0 is address (0x[0-9a-f]+)", " ".join(fig.caption)).group(1), 16) // 128
        if not result.failures():
            assert not marked, check.name
            continue
        if not result.counterexamples():      # a fact about the TMA's global tensor: no element to outline
            assert check.name == "tma_store_along_a_strided_global_mode" and not marked, check.name
            continue
        refuted += 1
        [(_, w)] = result.counterexamples()
        setup = build_buffer(check)
        base = w.point.get("base", 0) * check.align
        coord = tuple(w.point.get(v.name, 0) for v in setup.coords)
        wrote = BufferChain(setup).address(check.writer, coord, base)
        looks = BufferChain(setup).address(check.reader, coord, base)
        for byte in {wrote, looks}:
            assert (byte // 128 - first_line, byte % 128 // 16) in outlined, (check.name, hex(byte), outlined)
    assert refuted >= 5
