"""A check kind registered from this test module runs end to end through `prove` with no edit anywhere else: the
loader reads its key, the engine decides its theorem, the reports carry its verdict and counterexample, and
`--suggest`, `draw` and `explain` answer for it through the protocol (README, "Development: a new check kind")."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Iterator, TextIO

import pytest

from verifier.algebra.layout import Layout
from verifier.commands.cli import main
from verifier.kinds import registry
from verifier.kinds.base import (Context, DrawError, ExplainError, ExplainRequest, Group, Neighbour, Planned)
from verifier.outcome import ExitCode
from verifier.specfile.fields import AtomTable, Fields
from verifier.specfile.model import CheckSpec, MMAAtomSpec, Spec, common_fields
from verifier.theorems.catalog import TheoremId
from verifier.theorems.claims import Fact, Plan

if TYPE_CHECKING:
    from verifier.draw.figure import Figure
    from verifier.theorems.result import CheckResult

ROOT = Path(__file__).resolve().parent.parent
ATOMS = ROOT / "specs" / "atoms"
TOY = "toy_injective"
TOY_KEY = "toy_layout"


@dataclass(kw_only=True)
class InjectiveLayoutCheck(CheckSpec):
    """A layout that must map distinct coordinates to distinct offsets (named beside an MMA atom, as every check
    names an atom)."""
    kind: ClassVar[str] = TOY
    layout: Layout


class InjectiveLayoutKind:
    name = TOY
    precedence = -1
    keys: tuple[str, ...] = (TOY_KEY,)
    summary_line = "a layout alone: theorem 9"
    needs_result_to_draw = False

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return fields.has(TOY_KEY)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        layout = fields.layout(TOY_KEY)
        assert isinstance(layout, Layout)
        return InjectiveLayoutCheck(**common_fields(named), layout=layout)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, InjectiveLayoutCheck)

        def injective() -> Plan:
            values = check.layout.values()
            first: dict[int, int] = {}
            clash = None
            for i, v in enumerate(values):
                if v in first:
                    clash = (first[v], i)
                    break
                first[v] = i
            return [Fact("distinct coordinates have distinct offsets", clash is None,
                         "no two coordinates share an offset" if clash is None else
                         f"coordinates {clash[0]} and {clash[1]} share offset {values[clash[1]]}",
                         "no two coordinates share an offset", context.suspects.field(TOY_KEY, "the layout"),
                         point=None if clash is None else {"i": clash[0], "j": clash[1]})]

        plans = {TheoremId.SMEM_INJECTIVE: injective}
        return [Group(tuple(plans), lambda: Planned(plans))]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        raise ExplainError(f"check '{check.name}' is a layout alone: nothing to trace")

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return ()

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        raise DrawError("nothing to draw")

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        return ()

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


@pytest.fixture
def toy_kind():
    kind = registry.register(InjectiveLayoutKind())
    yield kind
    registry.unregister(TOY)


def _spec(tmp_path: Path, layout: str) -> Path:
    f = tmp_path / "toy.yaml"
    f.write_text(f"version: 1\nname: toy\ninclude: [{ATOMS}/sm80_f16.yaml]\nchecks:\n"
                 f"  tile:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    {TOY_KEY}: \"{layout}\"\n")
    return f


def test_a_registered_kind_is_proved_and_reported(tmp_path, toy_kind, capsys):
    f = _spec(tmp_path, "(4,8):(8,1)")
    code = main(["prove", str(f), "--allow-outside", "--no-cache", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == ExitCode.OK
    (check,) = report["checks"]
    assert check["check"] == "tile" and check["verdict"] == "verified"
    assert [t["id"] for t in check["theorems"]] == [TheoremId.SMEM_INJECTIVE.value]


def test_a_registered_kind_refutes_with_its_witness(tmp_path, toy_kind, capsys):
    f = _spec(tmp_path, "(4,8):(1,1)")
    code = main(["prove", str(f), "--allow-outside", "--no-cache"])
    out = capsys.readouterr().out
    assert code == ExitCode.WRONG
    assert "coordinates 1 and 4 share offset 1" in out and "smallest counterexample: i=1 j=4" in out
    assert "suspect: the layout (" in out and "toy.yaml:7:17" in out
    assert main(["prove", str(f), "--allow-outside", "--no-cache", "--suggest"]) == ExitCode.WRONG
    assert "no suggestion: no neighbour to try" in capsys.readouterr().out


def test_draw_and_explain_answer_through_the_kind(tmp_path, toy_kind, capsys):
    f = _spec(tmp_path, "(4,8):(8,1)")
    assert main(["draw", str(f), "--check", "tile", "--allow-outside"]) == ExitCode.BAD_INPUT
    assert main(["explain", str(f), "--check", "tile", "--allow-outside", "--lane", "0", "--value", "0"]) \
        == ExitCode.BAD_INPUT
    err = capsys.readouterr().err
    assert "has nothing to draw" in err
    assert "nothing to trace" in err


def test_without_the_kind_its_key_is_bad_input(tmp_path, capsys):
    f = _spec(tmp_path, "(4,8):(8,1)")
    assert main(["prove", str(f), "--allow-outside", "--no-cache"]) == ExitCode.BAD_INPUT
    assert f"unknown key '{TOY_KEY}'" in capsys.readouterr().err


def test_the_loader_builds_the_kinds_configuration(tmp_path, toy_kind):
    from verifier.engine.runner import run_check
    from verifier.specfile import load_spec
    spec = load_spec(_spec(tmp_path, "(4,8):(8,1)"), allow_outside=True)
    check = spec.checks["tile"]
    assert isinstance(check, InjectiveLayoutCheck) and registry.kind_of(check) is toy_kind
    assert run_check(spec, check).kind == TOY


def test_a_kind_is_registered_once(toy_kind):
    with pytest.raises(registry.KindError, match="already registered"):
        registry.register(InjectiveLayoutKind())
