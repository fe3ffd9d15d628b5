"""Swizzles and composed (swizzled) layouts vs CuTe (oracle/swizzle*.json)."""
import pytest

from oracle import Tally, cases
from verifier.algebra import ParseError, Swizzle, parse_expression
from verifier.algebra.cpp_syntax import read_cpp

FUNCTIONS = cases("swizzle", lambda c: c["kind"] == "swizzle_fn")
COMPOSED = cases("swizzle", lambda c: c["kind"] != "swizzle_fn")
BUILT_FROM_CPP = [c for c in COMPOSED if c["kind"] in ("composed", "composed_op")]
REJECTED = cases("swizzle_rejected")


@pytest.mark.parametrize("case", FUNCTIONS, ids=[c["id"] for c in FUNCTIONS])
def test_swizzle_function(case):
    sw = Swizzle(case["B"], case["M"], case["S"])
    table = parse_expression(f"composition(Sw<{case['B']},{case['M']},{case['S']}>, {case['domain']}:1)").values()
    ok = (str(sw), sw.yyy_msk, sw.zzz_msk, sw.swizzle_code, table) == \
        (case["text"], case["yyy_msk"], case["zzz_msk"], case["swizzle_code"], case["table"])
    Tally.record("swizzle", ok)
    assert ok


@pytest.mark.parametrize("case", COMPOSED, ids=[c["id"] for c in COMPOSED])
def test_composed_layout_text(case):
    """CuTe's printed composed layout reads back to the same text and the same evaluation table."""
    r = case["result"]
    layout = parse_expression(r["text"])
    ok = str(layout) == r["text"] and layout.values() == r["table"]
    Tally.record("swizzle", ok)
    assert str(layout) == r["text"]
    assert layout.values() == r["table"]


@pytest.mark.parametrize("case", BUILT_FROM_CPP, ids=[c["id"] for c in BUILT_FROM_CPP])
def test_composed_layout_operations(case):
    """The operation itself (tile_to_shape, right_inverse, upcast, divides...) computed from CuTe's inputs."""
    layout = read_cpp(case["expr"])
    assert str(layout) == case["result"]["text"], case["expr"]
    assert layout.values() == case["result"]["table"]


GMMA_ATOMS = [c for c in COMPOSED if c["kind"] == "gmma_atom"]


@pytest.mark.parametrize("case", GMMA_ATOMS, ids=[c["id"] for c in GMMA_ATOMS])
def test_gmma_layout_atoms_by_name(case):
    """GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T> and their tile_to_shape, written as CuTe's C++."""
    import re
    expr = re.sub(r"Shape<_(\d+),_(\d+)>\{\}", r"(\1,\2)", case["expr"])
    layout = parse_expression(expr)
    assert str(layout) == case["result"]["text"] and layout.values() == case["result"]["table"], case["expr"]


@pytest.mark.parametrize("case", [c for c in COMPOSED if c["result"].get("smem_offsets")],
                         ids=[c["id"] for c in COMPOSED if c["result"].get("smem_offsets")])
def test_smem_offsets_of_swizzled_layouts(case):
    """Bound to an smem pointer, GMMA atoms swizzle the byte address: Sw(L(i)*bytes)/bytes."""
    from verifier.algebra import SmemPtrFlag
    from verifier.smem import element_offsets
    layout = parse_expression(case["result"]["text"])
    assert element_offsets(layout, case["smem_elem_bits"]) == case["result"]["smem_offsets"]
    del SmemPtrFlag


@pytest.mark.parametrize("case", REJECTED, ids=[c["id"] for c in REJECTED])
def test_rejected(case):
    rule = case["error"].removeprefix("static assertion failed: ")
    expr = case["text"] if case["kind"] == "swizzle_fn" else None
    with pytest.raises(ParseError) as err:
        if expr is not None:
            parse_expression(expr)
        else:
            try:
                read_cpp(case["expr"])
            except ValueError as e:  # the C++ reader reports CuTe's rule; re-raise as the calculator would
                raise ParseError(str(e), case["expr"], 0) from e
    Tally.record("swizzle_rejected", rule in str(err.value))
    assert rule in str(err.value)
