"""A limit of this Python port (an operand form or tiler it does not implement) is PortLimit, never AlgebraError
(CuTe's own rule): the engine reports the first as unsupported and the second as refused (tests/test_outcomes.py)."""
import pytest

from verifier.algebra import Layout
from verifier.algebra.inttuple import AlgebraError, PortLimit, tdiv
from verifier.algebra.ops import compose_tiler
from verifier.algebra.tiling import logical_divide, logical_product


class Unknown:
    """A tiler of a type the port has no rule for."""


@pytest.mark.parametrize("operation", [logical_divide, logical_product, compose_tiler])
def test_an_unknown_tiler_is_a_limit_of_the_port(operation):
    with pytest.raises(PortLimit) as e:
        operation(Layout((4, 8), (8, 1)), Unknown())
    assert not isinstance(e.value, AlgebraError) and "unsupported tiler" in e.value.reason


def test_cute_s_rules_stay_cute_s():
    with pytest.raises(AlgebraError, match="too many modes in tiler") as e:
        compose_tiler(Layout(4, 1), (2, 2))
    assert not isinstance(e.value, PortLimit)
    with pytest.raises(AlgebraError, match="Division by zero"):
        tdiv(1, 0)


def test_a_well_formed_tiler_is_neither():
    assert logical_divide(Layout((4, 8), (8, 1)), 2).size() == 32
