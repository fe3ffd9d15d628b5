"""An MMA atom's counterexamples on its picture: theorem 1's coordinate nobody holds (or two (thread, value) pairs
that share one), theorem 2's slot where CuTe's layout puts an element (outlined red) and where the instruction
takes it (blue).  Computed from the witness and the same exhaustive renaming search theorem 2 ran; describing only."""
from __future__ import annotations

from ...cute.operand import Operand
from ...draw.figure import CONFLICT, EXPECTED, Figure
from ...draw.views import outline
from ...specfile.model import CopyAtomSpec, MMAAtomSpec
from ...theorems.catalog import TheoremId
from ...theorems.result import CheckResult
from ..cute_objects import mma_model_for
from .relabelling import Slot, find_relabelling

T = TheoremId


def _cell(atom: MMAAtomSpec, operand: str, offset: int) -> tuple[int, int]:
    """An operand's colex offset as its (row, col): the row is the fast index."""
    rows, _ = Operand.of(operand).pick(atom.shape_mnk)
    return offset % rows, offset // rows


def _layout(atom: MMAAtomSpec, operand: str):  # type: ignore[no-untyped-def]
    return {"A": atom.a, "B": atom.b, "C": atom.c}[operand]


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.lstrip("-").isdigit() else None


OperandMarks = dict[str, dict[tuple[int, int], tuple[str, str]]]    # operand -> (row, col) -> (colour, why)


def atom_marks(atom: MMAAtomSpec, result: CheckResult | None) -> tuple[OperandMarks, list[str]]:
    """operand -> cells to outline, and one caption line per marked counterexample."""
    marks: OperandMarks = {}
    captions: list[str] = []

    def put(operand: str, cell: tuple[int, int], colour: str, why: str) -> None:
        marks.setdefault(operand, {}).setdefault(cell, (colour, why))

    for t, w in result.counterexamples() if result is not None else []:
        item = t.first_failure()
        if t.id not in (T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION) or item is None \
                or item.subject not in ("A", "B", "C"):
            continue
        op, p = item.subject, w.point
        if t.id is T.MMA_BIJECTIVE:
            if "coordinate" in p and "thread" not in p:
                cell = _cell(atom, op, int(p["coordinate"]))
                put(op, cell, CONFLICT, f"theorem 1: no (thread, value) of {op} holds it")
                captions.append(f"outlined: {op}{cell}, which no (thread, value) holds (theorem 1)")
            elif {"thread", "value", "thread2", "value2"} <= set(p):
                q = int(_layout(atom, op)((int(p["thread"]), int(p["value"]))))
                cell = _cell(atom, op, q)
                put(op, cell, CONFLICT, f"theorem 1: thread {p['thread']} value {p['value']} and thread "
                                        f"{p['thread2']} value {p['value2']} both hold it")
                captions.append(f"outlined: {op}{cell}, held by two (thread, value) pairs (theorem 1)")
            continue
        conflict = None
        model = mma_model_for(atom)
        if model is not None and "thread2" in p:
            conflict = find_relabelling(atom, model).conflict
        slots: list[Slot] = [conflict.first, conflict.second] if conflict is not None else []
        if not slots and {"thread", "value"} <= set(p):
            actual, expected = _int(w.actual), _int(w.expected)
            if actual is not None and expected is not None:
                th, v = int(p["thread"]), int(p["value"])
                slots = [Slot(op, th, v, _cell(atom, op, expected), _cell(atom, op, actual))]
        for s in slots:
            put(s.operand, s.declared, CONFLICT, f"theorem 2: CuTe's layout puts {s.operand} thread {s.thread} value "
                                                 f"{s.value} here")
            if s.instruction != s.declared:
                put(s.operand, s.instruction, EXPECTED, f"theorem 2: the instruction takes {s.operand} thread "
                                                        f"{s.thread} value {s.value} from here")
            captions.append(f"outlined: {s.text()} (red: CuTe's layout, blue: the instruction; theorem 2)")
    return marks, captions




def copy_atom_figure(name: str, atom: CopyAtomSpec, value_bits: int, result: CheckResult | None) -> Figure:
    """A copy atom's source and destination (thread, value) -> element layouts in values of `value_bits` bits,
    threads down and values right; theorem 3's (thread, value) outlined on both when its counterexample has one.
    CuTe refusing the value type for the atom is a refusal (ConfigurationRefused), not a picture."""
    from ...algebra.inttuple import AlgebraError
    from ...cute.copy import TypedCopyAtom
    from ...draw.figure import Cell, Panel, thread_color
    from ..cute_objects import ConfigurationRefused, copy_atom
    try:
        typed = TypedCopyAtom(copy_atom(atom), value_bits)
    except AlgebraError as e:
        detail = str(e)[len(e.rule):].lstrip(": ")
        raise ConfigurationRefused(e.rule, detail, f"Copy_Atom<{atom.name}, {value_bits}-bit values>",
                                   "value_type") from None
    nthr = typed.num_thr
    panels = []
    for i, (side, layout) in enumerate((("source", typed.src), ("destination", typed.dst))):
        nval = int(layout.mode(1).size())
        side_panel = Panel(f"{side}: (thread, value) -> element", nthr, nval,
                           i * (max(typed.num_val_src, 1) + 1), 0, "thread", "value")
        for t in range(nthr):
            for v in range(nval):
                element = int(layout((t, v)))  # type: ignore[arg-type]  # a full coordinate: an int
                side_panel.cells.append(Cell(t, v, f"T{t}\ne{element}", thread_color(t),
                                             (("thread", str(t)), ("value", str(v)), ("element", str(element)))))
        panels.append(side_panel)
    caption = [f"{atom.instruction or atom.name}: each thread's values and the element of the atom's data each "
               f"names ({value_bits}-bit values)"]
    for th, w in result.counterexamples() if result is not None else []:
        if th.id is not T.COPY_ROUTING:
            continue
        p = w.point
        lane = p.get("thread", p.get("lane"))
        value = p["value"] if "value" in p else p["bit"] // value_bits if "bit" in p else None
        if lane is not None and value is not None:
            why = f"theorem {th.number}: thread {lane} value {value}" + (f" (bit {p['bit']})" if "bit" in p else "")
            for panel in panels:
                outline(panel, {(int(lane), int(value)): (CONFLICT, why)})
            caption.append(f"counterexample ({why}): expected {w.expected}, actual {w.actual}; outlined on both sides")
    return Figure(f"{name}: {atom.name}, {nthr} threads", panels, caption)


__all__ = ["OperandMarks", "atom_marks", "copy_atom_figure"]
