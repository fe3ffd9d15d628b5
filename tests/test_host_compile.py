"""The host compile of `import-kernel --compile` around the source: headers that launch kernels read through an
overlay (host_headers.py), the compile cache's dependency manifest (an edited header is a miss), namespace-scope
aliases noted for CUTLASS's collectives, and CUDA's pip-installed headers found."""
from __future__ import annotations

from pathlib import Path

import pytest

from verifier.importer import compile_notes as CN
from verifier.importer.host_headers import build_overlay, overlay_dir
from verifier.importer.instrument import SCOPE, SCOPE_NOTE, instrument, without_launches
from verifier.importer.kernel_paths import mma_atom_name
from verifier.importer.cpp_types import parse_type

LAUNCHING = """\
#pragma once
#include "sibling.h"
#include "quiet.h"
template <class K> void run(K k, int n) {
  kernel<K><<<dim3(n,
               1), 128, 0>>>(k);
}
"""


def test_a_launch_is_blanked_keeping_lines_and_columns():
    out = without_launches(LAUNCHING)
    assert out.count("\n") == LAUNCHING.count("\n")
    assert "<<<" not in out and ">>>" not in out
    line = out.splitlines()[4]
    assert line.startswith("  kernel<K>") and line.strip() == "kernel<K>"
    assert out.splitlines()[5].strip() == "(k);"
    assert without_launches("// a<<<1,1>>>(x) in a comment\nint x;\n").startswith("// a<<<1,1>>>")


def test_the_overlay_holds_launching_headers_only_and_points_at_their_siblings(tmp_path: Path):
    root = tmp_path / "include"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "launch.h").write_text(LAUNCHING, encoding="utf-8")
    (root / "lib" / "sibling.h").write_text("void sibling() { k<<<1, 1>>>(); }\n", encoding="utf-8")
    (root / "lib" / "quiet.h").write_text("int quiet;\n", encoding="utf-8")
    overlay = overlay_dir(tmp_path / "cache", (root,))
    copies = build_overlay(overlay, (root,))
    assert sorted(Path(c).relative_to(overlay).as_posix() for c in copies) == ["lib/launch.h", "lib/sibling.h"]
    text = (overlay / "lib" / "launch.h").read_text(encoding="utf-8")
    assert f'#include "{overlay / "lib" / "sibling.h"}"' in text          # the sibling's own copy
    assert f'#include "{(root / "lib" / "quiet.h").resolve()}"' in text      # the original: it launches nothing
    assert "<<<" not in text and text.count("\n") == LAUNCHING.count("\n")
    assert copies[str(overlay / "lib" / "launch.h")] == str((root / "lib" / "launch.h").resolve())
    # an edited header is seen by the next build
    (root / "lib" / "sibling.h").write_text("void sibling2() { k<<<1, 1>>>(); }\n", encoding="utf-8")
    build_overlay(overlay, (root,))
    assert "sibling2" in (overlay / "lib" / "sibling.h").read_text(encoding="utf-8")


def test_gcc_s_dependency_rule_is_read_without_the_compile_s_own_files(tmp_path: Path):
    rule = (f"host_program.o: {tmp_path}/host_program.cpp /w/verifier/host_prelude.hpp \\\n"
            f" {tmp_path}/k.cu /usr/include/cute/tensor.hpp \\\n /opt/my\\ dir/a.h /usr/include/cute/tensor.hpp\n")
    assert CN.dependencies(rule, tmp_path) == ["/w/verifier/host_prelude.hpp", "/usr/include/cute/tensor.hpp",
                                               "/opt/my dir/a.h"]


def test_a_cached_compile_is_a_miss_once_a_file_it_read_has_changed(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    header = tmp_path / "cute_header.hpp"
    header.write_text("// one\n", encoding="utf-8")
    note = "[with int Line = 3; int Column = 5; Tag = k()::verifier_tag_; T = int]' is deprecated"
    CN._write_cache("k1", [f"{CN.DEPENDENCY}{CN._digest(str(header))} {header}", note])
    assert CN._read_cache("k1") == [note]
    header.write_text("// two\n", encoding="utf-8")
    assert CN._read_cache("k1") is None
    header.unlink()
    assert CN._read_cache("k1") is None


def test_namespace_scope_aliases_are_noted_class_and_function_ones_are_not():
    src = """\
namespace app {
#if 1
using Mainloop = typename Builder<int>::CollectiveOp;
#endif
struct S { using Inner = int; };
void f() { using Local = int; }
}
using Top = app::Mainloop;
"""
    ins = instrument(src)
    scope = [(n.name, n.line, n.column) for n in ins.notes if n.function == SCOPE]
    assert scope == [("Mainloop", 3, 7), ("Top", 8, 7)]
    assert f"{SCOPE_NOTE}(3, 7, Mainloop);" in ins.text.splitlines()[2]
    assert ins.text.count("\n") == src.count("\n")


def test_k_major_only_gmma_atoms_are_named_as_the_atom_library_names_them():
    atom = parse_type("cute::MMA_Atom<cute::SM90::GMMA::MMA_64x128x8_F32TF32TF32_SS_TN<cute::SM90::GMMA::ScaleIn::"
                      "One, cute::SM90::GMMA::ScaleIn::One> >")
    assert mma_atom_name(atom) == ("SM90_64x128x8_F32TF32TF32_SS_TN", "", ("K", "K"))


def test_cuda_s_pip_headers_are_searched_after_the_toolkit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import importlib.util

    from verifier.importer import compiled
    (tmp_path / "nvidia" / "curand" / "include").mkdir(parents=True)
    (tmp_path / "nvidia" / "curand" / "include" / "curand_kernel.h").write_text("", encoding="utf-8")
    (tmp_path / "nvidia" / "empty" / "include").mkdir(parents=True)

    class Found:
        submodule_search_locations = [str(tmp_path / "nvidia")]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: Found() if name == "nvidia" else None)
    assert compiled.pip_cuda_includes() == (tmp_path / "nvidia" / "curand" / "include",)
    assert compiled.cuda_version((tmp_path,)) is None
    (tmp_path / "cuda.h").write_text("#define CUDA_VERSION 12080\n", encoding="utf-8")
    assert compiled.cuda_version((tmp_path,)) == (12, 8)


def test_a_long_compiler_message_keeps_its_complaint():
    """GCC names a collective by its whole template: the one line an error is kept the start and the end of the
    quoted type and the complaint after it (survey 6's 53n: the line ended inside the type, the complaint -- a
    private member -- never shown)."""
    from verifier.importer.compile_notes import MESSAGE_CHARS, shortened
    kind = "cute::tuple<cute::C<128>, cute::C<128>, cute::C<64> >, " * 20
    what = f"'using CollectiveMainloop = struct cutlass::gemm::collective::CollectiveMma<{kind}>' is private within " \
           "this context"
    short = shortened(what)
    assert len(short) <= MESSAGE_CHARS and short.endswith("is private within this context")
    assert short.startswith("'using CollectiveMainloop = ") and " ... " in short
    assert shortened("'int' was not declared") == "'int' was not declared"
