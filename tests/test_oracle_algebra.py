"""Layout algebra vs CuTe (oracle/algebra*.json): every printed result and every evaluation table."""
import pytest

from oracle import Tally, cases
from verifier.algebra import ParseError, parse_expression, parse_layout

ALGEBRA = cases("algebra", lambda c: c["op"] != "properties")
PROPERTIES = cases("algebra", lambda c: c["op"] == "properties")
REJECTED = cases("algebra_rejected")


@pytest.mark.parametrize("case", ALGEBRA, ids=[c["id"] for c in ALGEBRA])
def test_algebra_case(case):
    result = parse_expression(case["expr"])
    ok = str(result) == case["result"]["text"] and result.values() == case["result"]["table"]
    Tally.record("algebra", ok)
    assert str(result) == case["result"]["text"], case["expr"]
    assert result.values() == case["result"]["table"]


@pytest.mark.parametrize("case", PROPERTIES, ids=[c["id"] for c in PROPERTIES])
def test_properties_case(case):
    layout = parse_layout(case["inputs"]["A"]["text"])
    r = case["result"]
    got = (int(layout.size()), int(layout.cosize()), layout.rank(), layout.depth(),
           [int(m.size()) for m in layout.modes()], [int(m.cosize()) for m in layout.modes()])
    want = (r["size"], r["cosize"], r["rank"], r["depth"], r["mode_sizes"], r["mode_cosizes"])
    Tally.record("algebra", got == want)
    assert got == want


@pytest.mark.parametrize("case", REJECTED, ids=[c["id"] for c in REJECTED])
def test_rejected_case(case):
    """What CuTe refuses at compile time is refused, naming CuTe's rule."""
    rule = case["error"].removeprefix("static assertion failed: ")
    with pytest.raises(ParseError) as err:
        parse_expression(case["expr"])
    Tally.record("algebra_rejected", rule in str(err.value))
    assert rule in str(err.value)


def test_inputs_print_as_cute_prints_them():
    for c in ALGEBRA:
        for entry in c["inputs"].values():
            layout = parse_layout(entry["text"])
            assert str(layout) == entry["text"]
            assert layout.values() == entry["table"]
