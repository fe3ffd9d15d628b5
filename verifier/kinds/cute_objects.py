"""CuTe's objects of a spec's atoms (MMA_Atom, Copy_Atom), their instruction models, and CuTe's refusals.

Every kind builds its configuration from these.  A CuTe rule (AlgebraError, carrying the static_assert's text)
raised while CuTe's objects are built becomes ConfigurationRefused: the rule, the step that hit it and the spec
key to blame; the engine reports it as the theorem's `refused` outcome.
"""
from __future__ import annotations

import dataclasses
import functools
from functools import lru_cache
from typing import Any, Callable, TypeVar

from ..algebra.inttuple import AlgebraError
from ..algebra.layout import Layout
from ..cute.copy import CopyAtom
from ..cute.mma import MMAAtom
from ..hardware.base import CopyModel, MMAModel
from ..hardware.registry import copy_model, mma_instruction_model
from ..specfile.model import CopyAtomSpec, MMAAtomSpec

T = TypeVar("T")


class ConfigurationRefused(Exception):
    """CuTe would not compile the configuration: its rule, the step that hit it, and the spec key to blame."""

    def __init__(self, rule: str, detail: str, step: str, field: str) -> None:
        self.rule, self.detail, self.step, self.field = rule, detail, step, field
        super().__init__(f"{step}: {rule}" + (f" ({detail})" if detail else ""))


def refused_as(step: str, field: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A CuTe rule (AlgebraError) raised while building `step` is CuTe refusing the configuration there."""
    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def run(*args: Any) -> T:
            try:
                return fn(*args)
            except AlgebraError as e:
                raise ConfigurationRefused(e.rule, _detail(e), step, field) from None
        return run
    return wrap


def _detail(e: AlgebraError) -> str:
    text = str(e)
    return text[len(e.rule) + 2:] if text.startswith(e.rule + ": ") else ""


def mma_atom(spec: MMAAtomSpec) -> MMAAtom:
    m, n, k = spec.shape_mnk
    return MMAAtom(spec.name, (m, n, k), spec.thr_id, spec.a, spec.b, spec.c,
                   {k: v.bits for k, v in spec.types.items()}, spec.instruction)


def copy_atom(spec: CopyAtomSpec) -> CopyAtom:
    return CopyAtom(spec.name, spec.thr_id, spec.src, spec.dst, spec.ref, spec.instruction)


def mma_model_for(spec: MMAAtomSpec) -> MMAModel | None:
    """The atom's instruction model; tcgen05.mma takes M and N (and the operand types) from the atom, as CuTe
    writes them into the instruction descriptor."""
    types = {key: (t.name, t.bits) for key, t in spec.types.items()}
    m, n, k = spec.shape_mnk
    return mma_instruction_model(spec.instruction, spec.name, (m, n, k), types)


def wgmma_a_from_shared(spec: MMAAtomSpec) -> bool:
    """Whether the atom is a dense wgmma whose A is a shared-memory descriptor (an SS atom, FrgTypeA
    GMMA::smem_desc), which a register-sourced (RS) mainloop's static_assert refuses."""
    from ..hardware.registry import Instruction
    from ..hardware.wgmma import parse_wgmma
    form = parse_wgmma(Instruction.parse(spec.instruction)) if spec.instruction else None
    return form is not None and not form.sparse and not form.a_in_registers(spec.name)


def copy_model_for(spec: CopyAtomSpec, direction: str | None = None, value_bits: int | None = None) -> CopyModel | None:
    bits = int(spec.src.mode(1).size()) if spec.src.rank() > 1 else None
    model = copy_model(spec.instruction, spec.name, bits, value_bits)
    if model is not None and model.lanes == 1 and direction is not None:   # per-thread copies: the check's direction
        model = dataclasses.replace(model, direction=direction)
    return model


@lru_cache(maxsize=None)
def hardware_layout(model: MMAModel, operand: str, thr_id: Layout) -> Layout | None:
    """The instruction's (thread, value) -> colex coordinate map as a layout, fitted bit by bit.

    mma.sync / wgmma fragments are affine in the bits of the lane and element index; the fit is checked
    on every point, so a model that is not a layout gives None rather than a wrong layout.
    """
    frag = model.operand(operand)
    d0, _ = model.extent(operand)
    nthr, nval = int(thr_id.size()), frag.elements

    def bits(n: int) -> int | None:
        b = n.bit_length() - 1
        return b if n == 1 << b else None

    bt, bv = bits(nthr), bits(nval)
    if bt is None or bv is None:
        return None
    coords = frag.coords(thr_id.values(), nval)
    # the instruction's colex coordinate of (t, v), at t + nthr * v
    table = [coords[t][v][0] + d0 * coords[t][v][1] for v in range(nval) for t in range(nthr)]
    if table[0] != 0:
        return None
    st = tuple(table[1 << i] for i in range(bt))
    sv = tuple(table[nthr << i] for i in range(bv))
    fitted = Layout(((2,) * bt if bt else 1, (2,) * bv if bv else 1), (st if bt else 0, sv if bv else 0))
    if fitted.values() != table:
        return None
    from ..algebra.ops import coalesce
    return coalesce(fitted, (1, 1))   # (4,8):(32,1)-style modes, as a reader would write them


def thread_layout(al: Any) -> Any:
    """make_tiled_mma's thread layout: [M, N, K] counts as a layout; a layout (or nothing) as written."""
    if al is None or isinstance(al, Layout):   # a strided thread layout such as (2,2,1):(2,1,1) passes unchanged
        return al
    return Layout(tuple(al))
