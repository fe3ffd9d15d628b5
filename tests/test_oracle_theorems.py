"""The eight theorems agree with each other on every tiled configuration of CuTe's oracle: all verified."""
import re

import pytest

from oracle import cases, copy_atom, load, shape_mnk
from verifier.algebra import parse_layout, type_bits
from verifier.algebra.cpp_syntax import read_cpp
from verifier.kinds.tiled.config import TiledCheck
from verifier.specfile.model import CopyAtomSpec, Loc, MMAAtomSpec, Spec, ValueType
from verifier.engine.runner import run_check

HERE = Loc("tests/data/oracle_tiled.json.gz", 1, 1)
CONFIGS = cases("tiled", lambda c: c["config"]["operand"] is not None)
_MMA_CALL = re.compile(r"make_tiled_mma\((?P<atom>\w+(?:<[^>]*>)?)\{\}(?:, (?P<thr>Layout<.*?>)\{\})?"
                       r"(?:, (?P<perm>Tile<.*>)\{\})?\)$")


def mma_spec(name: str) -> MMAAtomSpec:
    c = next(x for x in load("atoms") if x["op"] == name)
    types = {k.lower(): ValueType(c["ValType" + k]["name"], c["ValType" + k]["bits"]) for k in "ABCD"}
    return MMAAtomSpec(name, c["ptx"], shape_mnk(c["Shape_MNK"]), parse_layout(c["ThrID"]["text"]), types,
                       parse_layout(c["ALayout"]["text"]), parse_layout(c["BLayout"]["text"]),
                       parse_layout(c["CLayout"]["text"]), HERE)


def copy_spec(name: str) -> CopyAtomSpec:
    a = copy_atom(name)
    return CopyAtomSpec(name, a.instruction or name, a.thr_id, a.src_bits, a.dst_bits, a.ref_bits, "layout", HERE)


@pytest.mark.parametrize("case", CONFIGS, ids=[c["id"] for c in CONFIGS])
def test_oracle_configuration_is_verified(case):
    cf = case["config"]
    m = _MMA_CALL.match(cf["mma"])
    thr = tuple(read_cpp(m.group("thr")).shape) if m.group("thr") else None
    perm = read_cpp(m.group("perm")) if m.group("perm") else None
    ms, cs = mma_spec(cf["mma_atom"]), copy_spec(cf["copy_op"])
    spec = Spec("oracle", "oracle", 1, {ms.name: ms}, {cs.name: cs}, {})
    vt = cf["value_type"]
    check = TiledCheck(case["id"], HERE, mma=ms.name, atom_layout=thr, permutation=perm, operand=cf["operand"],
                      copy=cs.name, value_type=ValueType(vt, type_bits(vt)), smem=parse_layout(case["smem"]["text"]))
    r = run_check(spec, check)
    assert r.verdict == "verified", [(t.id, t.status, t.reason) for t in r.theorems if t.status != "proved"]

