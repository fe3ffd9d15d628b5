"""`python -m verifier explain SPEC --check NAME ...`: the chain of numbers of one element of a check, as the seed
article traces A(0,9) by hand; the check's kind says which element (--lane/--value, or --coord/--stage) it takes."""
from __future__ import annotations

import sys
from typing import TextIO

from ..engine.proving import select
from ..kinds.base import ExplainError, ExplainRequest
from ..kinds.cute_objects import ConfigurationRefused
from ..kinds.registry import kind_of
from ..outcome import ExitCode
from ..report.failures import safe
from ..specfile import CheckSpec, Spec, SpecError
from ..specfile.family import FamilyCheck, point_text
from ..symbolic.procedure import Settings


def explain_main(path: str, check: str, lane: int | None, value: int | None, instance: list[int], base: int,
                 out: TextIO | None = None, allow_outside: bool = False, coord: list[int] | None = None,
                 stage: int = 0, member: str | None = None) -> int:
    out = out or sys.stdout
    request = ExplainRequest(path, lane, value, tuple(instance), base, tuple(coord) if coord is not None else None,
                             stage)
    try:
        c, spec = find_check(path, check, allow_outside)
        if isinstance(c, FamilyCheck):     # a family's member: --member's, else the one its result is about
            from ..engine.family import member_check
            from ..engine.runner import prove_member
            chosen, _ = member_check(spec, c, member, Settings(), prove_member, prove=False)
            out.write(f"{path}: check {safe(check)} is a family; its member {point_text(chosen.point)}:\n")
            c = chosen.check
        elif member is not None:
            raise ExplainError(f"check '{safe(check)}' is not a family: --member names a family's member")
        kind_of(c).explain(spec, c, request, out)
    except (SpecError, ExplainError) as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    except ConfigurationRefused as e:
        sys.stderr.write(f"error: CuTe would not build check '{safe(check)}': {e}\n")
        return ExitCode.BAD_INPUT
    return ExitCode.OK


def find_check(path: str, name: str, allow_outside: bool) -> tuple[CheckSpec, Spec]:
    """A check by name in a spec file or anywhere under a directory of specs."""
    from ..specfile.loader import load_specs
    spec, check = select(load_specs([path], allow_outside=allow_outside, only=[name]), [name])[0]   # it alone built
    return check, spec
