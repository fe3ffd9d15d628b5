"""Fuzzing the spec loader: whatever the file holds, load_specs returns specs or raises one SpecError line.

(a) random text, and random YAML structures (the right keys with values of any type, random keys, nesting,
aliases) dumped to files; (b) documents shaped like specs whose values are layout-looking strings, numbers
(huge ones too), lists and nothing. The only exception allowed is SpecError, its message one line of less
than MESSAGE_LIMIT characters that starts with the file's path, and every example is quick.
"""
from __future__ import annotations

import io
import os
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from verifier.specfile import Spec, SpecError, load_specs
from verifier.specfile.loader import CHECK_KEYS, COPY_KEYS, MMA_KEYS, TOP_KEYS, TYPE_KEYS

MESSAGE_LIMIT = 300
FUZZ = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


def load_file(directory: Path, content: str | bytes) -> list[Spec]:
    """Writes `content` as a spec file and loads it; a SpecError must be one short line about this file."""
    path = directory / "fuzz.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    with warnings.catch_warnings(record=True) as warned:   # a warning would reach stderr, quoting the file
        warnings.simplefilter("always")
        try:
            return load_specs([str(path)])
        except SpecError as e:
            message = str(e)
            assert "\n" not in message and "\r" not in message, message[:500]
            assert len(message) < MESSAGE_LIMIT, message[:500]
            assert message.startswith(f"{path}:"), message[:500]
            return []
        finally:
            assert not warned, [str(w.message)[:300] for w in warned]


def dump(document: Any, flow: bool | None) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


# --- values ------------------------------------------------------------------------------------------

HUGE = st.one_of(st.integers(-(10 ** 80), 10 ** 80), st.just(10 ** 300), st.just(-(2 ** 64)))
LAYOUT_TEXT = st.sampled_from([
    "32:1", "(4,8):(8,1)", "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))",
    "(32,(32,4)):(32,(1,1024))", "(32,128):(128,1)", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
    "Sw<3,3,3> o (8,64):(64,1)", "(2,2,1):(2,1,1)", "16:1", "(16,16):(16,1)", "1:0", "(4,8):(1,4",
    "right_inverse((32,(2,4)):(2,(1,64)))", "(" * 70 + "1" + ")" * 70, "9" * 60 + ":1", "3 o 4", "_", "",
])
TOKENS = st.sampled_from(["(", ")", ",", ":", "_", "Sw<3,3,3>", " o ", "4", "8", "-1", "0", "[", "]"])
LAYOUT_LIKE = st.one_of(LAYOUT_TEXT, st.lists(TOKENS, max_size=20).map("".join))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 70), HUGE, st.floats(allow_nan=True),
                    st.text(max_size=30), LAYOUT_LIKE, st.sampled_from(["half_t", "float", "A", "pass", "src", "dst"]))
KEYS = st.one_of(st.text(max_size=12), st.sampled_from(TOP_KEYS + MMA_KEYS + COPY_KEYS + CHECK_KEYS), st.integers())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=20)


def shared(value: Any, depth: int, fanout: int) -> Any:
    """`value` referenced `fanout` times at each of `depth` levels: dumped with anchors and aliases."""
    for _ in range(depth):
        value = [value] * fanout
    return value


ALIASED = st.builds(shared, VALUES, st.integers(1, 8), st.integers(1, 9))


def with_keys(keys: tuple[str, ...], values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict]:
    return st.dictionaries(st.sampled_from(keys), values, max_size=len(keys))


def named(entry: st.SearchStrategy[Any]) -> st.SearchStrategy[dict]:
    return st.dictionaries(st.one_of(st.sampled_from(["X", "MMA", "LDSM", "c"]), st.text(max_size=8)), entry,
                           max_size=3)


TOP_LEVEL = st.one_of(
    with_keys(TOP_KEYS, st.one_of(VALUES, ALIASED)),
    st.dictionaries(KEYS, VALUES, max_size=6),
    VALUES,
    ALIASED,
)


# --- (a) random text and random YAML -------------------------------------------------------------------

@FUZZ
@given(text=st.text(max_size=300))
def test_random_text(workdir: Path, text: str) -> None:
    load_file(workdir, text)


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes(workdir: Path, data: bytes) -> None:
    load_file(workdir, data)


YAML_PIECES = st.sampled_from(["version: 1\n", "name: n\n", "checks:\n", "  c:\n", "    mma: X\n", "- ", "? ", ": ",
                               "&a ", "*a ", "[", "]", "{", "}", ",", "'", '"', "!!int ", "!!binary ", "<<: *a\n",
                               "#", "\t", "  ", "\n", "---\n", "%YAML 1.1\n", "1e400", "9" * 50, "mma_atoms:\n"])


@FUZZ
@given(pieces=st.lists(YAML_PIECES, max_size=40))
def test_yaml_token_soup(workdir: Path, pieces: list[str]) -> None:
    load_file(workdir, "".join(pieces))


@FUZZ
@given(document=TOP_LEVEL, flow=st.sampled_from([None, True, False]))
def test_random_yaml_structures(workdir: Path, document: Any, flow: bool | None) -> None:
    load_file(workdir, dump(document, flow))


# --- (b) documents shaped like specs -----------------------------------------------------------------

FIELD = st.one_of(LAYOUT_LIKE, SCALARS, st.lists(st.one_of(st.integers(-2, 64), HUGE, LAYOUT_LIKE), max_size=4))
TYPES = with_keys(TYPE_KEYS, st.one_of(st.sampled_from(["half_t", "float", "tfloat32_t", "int8_t", "nope"]),
                                       st.integers(-1, 64), HUGE))
MMA_ATOM = st.fixed_dictionaries({"shape_mnk": st.one_of(st.just([16, 8, 16]), FIELD),
                                  "thr_id": st.one_of(st.just("32:1"), LAYOUT_LIKE),
                                  "types": st.one_of(TYPES, FIELD),
                                  "a": LAYOUT_LIKE, "b": LAYOUT_LIKE, "c": LAYOUT_LIKE},
                                 optional={"instruction": st.text(max_size=20), "source": FIELD})
COPY_ATOM = st.fixed_dictionaries({"instruction": st.text(max_size=20), "thr_id": LAYOUT_LIKE,
                                   "src": LAYOUT_LIKE, "dst": LAYOUT_LIKE,
                                   "ref": st.one_of(st.sampled_from(["src", "dst"]), LAYOUT_LIKE)})
CHECK = with_keys(CHECK_KEYS, st.one_of(st.sampled_from(["X", "LDSM", "A", "b", "pass", "fail", "half_t"]), FIELD,
                                        with_keys(("atom_layout", "permutation"), FIELD)))
SPEC = st.fixed_dictionaries({"version": st.one_of(st.just(1), SCALARS), "name": st.one_of(st.just("n"), SCALARS)},
                             optional={"description": SCALARS, "mma_atoms": named(MMA_ATOM),
                                       "copy_atoms": named(COPY_ATOM), "checks": named(CHECK),
                                       "include": st.one_of(st.lists(st.text(max_size=10), max_size=2), SCALARS)})


@FUZZ
@given(document=SPEC, flow=st.sampled_from([None, True, False]))
def test_spec_shaped_documents(workdir: Path, document: dict, flow: bool | None) -> None:
    for spec in load_file(workdir, dump(document, flow)):
        assert spec.version == document["version"] and spec.name == document["name"]


def test_fuzz_file_stays_inside_its_directory(workdir: Path) -> None:
    """An include the fuzzer writes can only reach files inside the work directory (or be refused)."""
    load_file(workdir, "version: 1\nname: n\ninclude: [/etc/passwd]\n")
    assert os.listdir(workdir) == ["fuzz.yaml"]
