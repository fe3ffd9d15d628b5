"""Every atom of CuTe's oracle whose instruction is modelled is proved by the atom theorems, and a mutated
copy of it (two strides of a value mode swapped) is refuted."""
import dataclasses

import pytest

from oracle import copy_atom, load, shape_mnk
from verifier.algebra import Layout, parse_layout
from verifier.algebra.inttuple import flatten_to_tuple, unflatten
from verifier.hardware.registry import copy_model, element_copy_alignment, mma_instruction_model
from verifier.kinds.atom.config import CopyAtomCheck, MmaAtomCheck
from verifier.specfile.model import CopyAtomSpec, Loc, MMAAtomSpec, Spec, ValueType
from verifier.engine.runner import run_check

HERE = Loc("tests/data/oracle_atoms.json.gz", 1, 1)
MMA = [c for c in load("atoms") if c["kind"] == "mma" and mma_instruction_model(c["ptx"], c["op"]) is not None]
COPY = [c for c in load("atoms") if c["kind"] == "copy" and (
    element_copy_alignment(c["ptx"], c["op"]) is not None
    or copy_model(c["ptx"], c["op"], int(parse_layout(c["SrcLayout_bits"]["text"]).mode(1).size())) is not None)]
ELEMENT_WISE = {c["op"] for c in COPY if element_copy_alignment(c["ptx"], c["op"]) is not None}


def test_the_element_wise_copies_are_modelled():
    assert ELEMENT_WISE >= {"DefaultCopy", "AutoVectorizingCopy"}


def mutate(layout: Layout) -> Layout | None:
    """A small, plausible typo: swap two different strides inside the value mode, else inside the thread
    mode, else double the last non-zero stride.  Same shape, different map."""
    for mode in (1, 0):
        sub = layout.mode(mode)
        flat = list(flatten_to_tuple(sub.stride))
        for i in range(len(flat)):
            for j in range(i + 1, len(flat)):
                if flat[i] != flat[j]:
                    flat[i], flat[j] = flat[j], flat[i]
                    new = _replace_mode(layout, mode, unflatten(tuple(flat), sub.stride))
                    if new.values() != layout.values():
                        return new
                    flat[i], flat[j] = flat[j], flat[i]
    flat = list(flatten_to_tuple(layout.stride))
    for i in reversed(range(len(flat))):
        if flat[i]:
            flat[i] *= 2
            return Layout(layout.shape, unflatten(tuple(flat), layout.stride))
    return None


def _replace_mode(layout: Layout, mode: int, stride) -> Layout:
    strides = [m.stride for m in layout.modes()]
    strides[mode] = stride
    return Layout(layout.shape, tuple(strides))


def mma_spec(c, a=None, b=None, cl=None):
    types = {k.lower(): ValueType(c["ValType" + k]["name"], c["ValType" + k]["bits"]) for k in "ABCD"}
    return MMAAtomSpec(c["op"], c["ptx"], shape_mnk(c["Shape_MNK"]), parse_layout(c["ThrID"]["text"]), types,
                       a or parse_layout(c["ALayout"]["text"]), b or parse_layout(c["BLayout"]["text"]),
                       cl or parse_layout(c["CLayout"]["text"]), HERE)


def run_mma(spec):
    s = Spec("oracle", "oracle", 1, {spec.name: spec}, {}, {})
    return run_check(s, MmaAtomCheck("atom", HERE, mma=spec.name))


# Findings among the MMA atoms (refuted on purpose; verifier/findings.py, tests/test_hw_dot_product.py)
KNOWN_MMA_DISAGREEMENTS = {
    "SM61_DP2A": "dp2a.s32.s32 has no .lo / .hi (ptxas rejects it) and its B elements are bytes, not int16_t",
}


@pytest.mark.parametrize("case", MMA, ids=[c["op"] for c in MMA])
def test_mma_atom_is_proved_and_its_mutation_refuted(case):
    r = run_mma(mma_spec(case))
    if case["op"] in KNOWN_MMA_DISAGREEMENTS:
        assert r.verdict == "refuted" and r.failures()[0].id == "mma.matches_instruction"
        return
    assert r.verdict == "verified", [(t.id, t.status, t.reason) for t in r.theorems]
    for key in ("ALayout", "BLayout", "CLayout"):
        bad = mutate(parse_layout(case[key]["text"]))
        if bad is None:
            continue
        args = {"ALayout": {"a": bad}, "BLayout": {"b": bad}, "CLayout": {"cl": bad}}[key]
        assert run_mma(mma_spec(case, **args)).verdict == "refuted", key
        return
    if all(parse_layout(case[k]["text"]).size() == 1 for k in ("ALayout", "BLayout", "CLayout")):
        # one value each (UniversalFMA): nothing to swap; the same traits claiming a K of 2 are refuted instead
        wide = dataclasses.replace(mma_spec(case), shape_mnk=(1, 1, 2), a=parse_layout("(1,2):(0,1)"),
                                   b=parse_layout("(1,2):(0,1)"))
        assert run_mma(wide).verdict == "refuted"
        return
    pytest.fail("no mutation found")


def run_copy(spec, bits):
    s = Spec("oracle", "oracle", 1, {}, {spec.name: spec}, {})
    return run_check(s, CopyAtomCheck("atom", HERE, copy=spec.name, value_type=ValueType(str(bits), bits)))


BITS = {"half_t": 16, "bfloat16_t": 16, "int8_t": 8, "uint8_t": 8, "float": 32, "tfloat32_t": 32, "double": 64}

# Findings: atoms whose traits do not describe an instruction that exists as they say (refuted on purpose).
KNOWN_DISAGREEMENTS = {
    "SM75_U32x1_MOVM_T": "Copy_Traits give src == dst (no lane moves), movmatrix.trans moves element (r,c) to (c,r)",
    "SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>": "cp.async.cg exists for 16 bytes only",
    "SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>": "cp.async.cg exists for 16 bytes only",
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint32_t>": "cp.async.cg exists for 16 bytes only",
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint64_t>": "cp.async.cg exists for 16 bytes only",
}


def value_bits(case, a) -> int:
    """A value type CuTe accepts that a copy moves whole: the widest one that divides the bits per thread."""
    per_thread = int(a.src_bits.mode(1).size())
    element_wise = case["op"] in ELEMENT_WISE      # one value of any width per application
    ok = [BITS[v["cpp"]] for v in case["value_types"]
          if v["compiles"] and (element_wise or per_thread % BITS[v["cpp"]] == 0)]
    return max(ok)


@pytest.mark.parametrize("case", COPY, ids=[c["op"] for c in COPY])
def test_copy_atom_is_proved_and_its_mutation_refuted(case):
    a = copy_atom(case["op"])
    bits = value_bits(case, a)
    spec = CopyAtomSpec(case["op"], a.instruction or case["op"], a.thr_id, a.src_bits, a.dst_bits, a.ref_bits,
                        "layout", HERE)
    r = run_copy(spec, bits)
    if case["op"] in KNOWN_DISAGREEMENTS:
        assert r.verdict == "refuted" and r.failures()[0].id == "copy.routing"
        return
    assert r.verdict == "verified", [(t.id, t.status, t.reason) for t in r.theorems]
    for side in ("dst_bits", "src_bits"):
        # an element-wise trait has one unit per thread and nothing to swap: give it two
        bad = Layout((1, 2), (0, 1)) if case["op"] in ELEMENT_WISE else mutate(getattr(a, side))
        if bad is None:
            continue
        mutated = CopyAtomSpec(case["op"], spec.instruction, a.thr_id, bad if side == "src_bits" else a.src_bits,
                               bad if side == "dst_bits" else a.dst_bits, a.ref_bits, "layout", HERE)
        assert run_copy(mutated, bits).verdict == "refuted", side
        return
    pytest.fail("no mutation found")
