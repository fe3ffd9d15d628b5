"""Atom traits vs CuTe (oracle/atoms*.json): every layout, and Copy_Atom's recast to every value type."""
import pytest

from oracle import Tally, atoms, cases
from verifier.algebra import AlgebraError, parse_layout, type_bits

MMA = cases("atoms", lambda c: c["kind"] == "mma")
COPY = cases("atoms", lambda c: c["kind"] == "copy")
COPY_TYPED = [(c, vt) for c in COPY for vt in c["value_types"]]


@pytest.mark.parametrize("case", MMA, ids=[c["id"] for c in MMA])
def test_mma_traits(case):
    ok = True
    for key in ("ThrID", "ALayout", "BLayout", "CLayout"):
        layout = parse_layout(case[key]["text"])
        ok &= str(layout) == case[key]["text"]
        if case[key].get("table") is not None:
            ok &= layout.values() == case[key]["table"]
        if case[key].get("table_thread0") is not None:  # GMMA smem operands: thread stride 0
            ok &= [int(layout(0, v)) for v in range(int(layout.mode(1).size()))] == case[key]["table_thread0"]
        ok &= int(layout.size()) == case[key]["size"] and int(layout.cosize()) == case[key]["cosize"]
    Tally.record("atoms", ok)
    assert ok


@pytest.mark.parametrize("case,vt", COPY_TYPED, ids=[f"{c['id']}<{vt['cpp']}>" for c, vt in COPY_TYPED])
def test_copy_atom_value_recast(case, vt):
    """Copy_Atom<Op, T>: recast_layout<uint1_t, T> of each traits layout, or CuTe's refusal."""
    atom = atoms()[case["op"]]
    if not vt["compiles"]:
        with pytest.raises(AlgebraError) as err:
            atom.with_value_bits(type_bits(vt["cpp"]))
        ok = vt["error"].removeprefix("static assertion failed: ") in str(err.value)
        Tally.record("atoms", ok)
        assert ok
        return
    typed = atom.with_value_bits(type_bits(vt["cpp"]))
    got = {"Src": typed.src, "Dst": typed.dst, "Ref": typed.ref}
    ok = all(str(got[k]) == vt["ValLayout" + k]["text"] and got[k].values() == vt["ValLayout" + k]["table"]
             for k in got)
    ok &= (typed.num_val_src, typed.num_val_dst) == (vt["NumValSrc"], vt["NumValDst"])
    Tally.record("atoms", ok)
    assert ok


def _rejected_alayout() -> str:
    """The oracle README quotes the ALayout CuTe could not instantiate; read it from there."""
    import re
    from oracle import DATA
    text = (DATA / "ORACLE_README.md").read_text()
    m = re.search(r"`ALayout` is `(Shape<.*?>)`\s*with\s*`(Stride<.*?>)`", text, re.S)
    return f"Layout<{m.group(1)},{m.group(2)}>"


@pytest.mark.parametrize("case", cases("atoms_rejected"), ids=[c["id"] for c in cases("atoms_rejected")])
def test_rejected_atoms(case):
    """SM80_16x8x128 XORPOPC/ANDPOPC: CuTe cannot instantiate their ALayout (shape/stride ranks differ)."""
    from verifier.algebra.cpp_syntax import read_cpp
    rule = case["error"].removeprefix("static assertion failed: ")
    with pytest.raises(AlgebraError) as err:
        read_cpp(_rejected_alayout())
    Tally.record("atoms_rejected", rule.lower() in str(err.value).lower())
    assert rule.lower() in str(err.value).lower()
