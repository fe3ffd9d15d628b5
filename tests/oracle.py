"""CuTe's own results (../shared/oracle, copied into tests/data as gzip) and how to rebuild their inputs.

Every expectation used by the conformance tests is read from these files; nothing is copied by hand.
"""
from __future__ import annotations

import functools
import gzip
import json
import re
from pathlib import Path
from typing import Any

from verifier.algebra import Layout, parse_layout, type_bits
from verifier.algebra.cpp_syntax import read_cpp
from verifier.cute.copy import CopyAtom, TiledCopy, make_tiled_copy, make_tiled_copy_for
from verifier.cute.mma import MMAAtom, TiledMMA

DATA = Path(__file__).parent / "data"


@functools.lru_cache(maxsize=None)
def load(name: str) -> list[dict]:
    with gzip.open(DATA / f"oracle_{name}.json.gz", "rt") as f:
        return json.load(f)


def cases(name: str, pred=lambda c: True) -> list[dict]:
    return [c for c in load(name) if pred(c)]


def shape_mnk(text: str) -> tuple[int, int, int]:
    return tuple(int(x) for x in re.findall(r"\d+", text))  # type: ignore[return-value]


@functools.lru_cache(maxsize=None)
def atoms() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for c in load("atoms"):
        if c["kind"] == "mma":
            out[c["op"]] = MMAAtom(
                c["op"], shape_mnk(c["Shape_MNK"]), parse_layout(c["ThrID"]["text"]),
                parse_layout(c["ALayout"]["text"]), parse_layout(c["BLayout"]["text"]),
                parse_layout(c["CLayout"]["text"]),
                {k.lower(): c["ValType" + k]["bits"] for k in "ABCD"}, c.get("ptx"))
        else:
            out[c["op"]] = CopyAtom(
                c["op"], parse_layout(c["ThrID"]["text"]), parse_layout(c["SrcLayout_bits"]["text"]),
                parse_layout(c["DstLayout_bits"]["text"]), parse_layout(c["RefLayout_bits"]["text"]), c.get("ptx"))
    return out


def copy_atom(name: str) -> CopyAtom:
    a = atoms()
    if name in a:
        return a[name]
    m = re.fullmatch(r"UniversalCopy<(.+)>", name)
    if not m:
        raise KeyError(name)
    b = type_bits(m.group(1))  # UniversalCopy<T>: one T per thread, the same traits for every T of b bits
    return CopyAtom(name, Layout(1, 0), Layout((1, b), (0, 1)), Layout((1, b), (0, 1)), Layout((1, b), (0, 1)))


_MMA_CALL = re.compile(r"make_tiled_mma\((?P<atom>\w+(?:<[^>]*>)?)\{\}(?:, (?P<thr>Layout<.*?>)\{\})?"
                       r"(?:, (?P<perm>Tile<.*>)\{\})?\)$")


def tiled_mma(config: dict) -> TiledMMA:
    m = _MMA_CALL.match(config["mma"])
    assert m, config["mma"]
    thr = read_cpp(m.group("thr")) if m.group("thr") else None
    perm = read_cpp(m.group("perm")) if m.group("perm") else None
    return TiledMMA(atoms()[config["mma_atom"]], thr, perm)


def tiled_copy(case: dict) -> tuple[TiledCopy, TiledMMA | None]:
    cf = case["config"]
    if cf["operand"] is None:
        m = re.fullmatch(r"make_tiled_copy\(Copy_Atom<(.*)>\{\}, (Layout<.*>\{\}), (Layout<.*>\{\})\)",
                         cf["tiled_copy"])
        op, vt = m.group(1).rsplit(", ", 1)
        return make_tiled_copy(copy_atom(op).with_value_bits(type_bits(vt)), read_cpp(m.group(2)),
                               read_cpp(m.group(3))), None
    mma = tiled_mma(cf)
    atom = copy_atom(cf["copy_op"]).with_value_bits(type_bits(cf["value_type"]))
    return make_tiled_copy_for(atom, mma, cf["operand"]), mma


class Tally:
    """Counts the oracle cases the suite matched, for the summary line CI prints."""
    matched: dict[str, int] = {}
    total: dict[str, int] = {}

    @classmethod
    def record(cls, family: str, ok: bool) -> None:
        cls.total[family] = cls.total.get(family, 0) + 1
        cls.matched[family] = cls.matched.get(family, 0) + int(ok)
