"""What a check kind is: the one protocol every kind implements, and the plain data it hands the engine.

A kind owns everything that differs between checks of different shapes: its typed configuration and how the
loader reads it (`recognises`, `read`), the theorems it runs and how they are planned (`plan`, in groups that
share CuTe's objects and one chain), how one of its elements is traced (`explain`), which pictures it has
(`views`, `figures`, `report_views`) and which nearby configurations `--suggest` tries (`neighbours`).  The
loader, the engine, the reports, `draw` and `--suggest` ask the registry (registry.py) for a check's kind and
call these; nothing else switches on the kind.

A kind's module imports only light modules at import time (the loader asks every kind whether a check is
its own); CuTe's objects, the hardware models and the theorems are imported by the methods that use them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, Protocol, TextIO, TypeVar

from ..specfile.fields import AtomTable, Fields
from ..specfile.model import CheckSpec, CopyAtomSpec, MMAAtomSpec, Spec
from ..theorems.catalog import TheoremId
from ..theorems.claims import ChainLine, Plan, TheoremResult, Trace

if TYPE_CHECKING:
    from ..draw.figure import Figure
    from ..symbolic.procedure import Settings
    from ..theorems.result import CheckResult
    from ..theorems.suspects import Suspects


class Chain(Protocol):
    """The numbers of a check's chain at a witness point, as the seed article writes them by hand."""

    def lines(self, trace: Trace, point: dict[str, int]) -> tuple[str, list[ChainLine]]: ...


PlanOf = Callable[[], Plan]


@dataclass
class Planned:
    """A group's theorems, planned over the objects its build made (in the order they are decided), and the chain
    their witnesses are traced through."""
    plans: dict[TheoremId, PlanOf]
    chain: Chain | None = None


# a check's fields that name, place, describe or expect it: no theorem reads them
NOT_CONFIGURATION = ("name", "loc", "field_locs", "description", "expect", "source", "assumes")
# an atom's fields that place it in its file
NOT_ATOM_CONTENT = ("loc", "field_locs", "source")


def content_key(value: Any, leave_out: tuple[str, ...]) -> tuple[Hashable, ...]:
    """A dataclass (a check's configuration, an atom) as a `Group.shared` key: its type and every field but
    `leave_out`, each value by its content (`_content_of`)."""
    return (type(value).__name__,) + tuple((name, _content_of(getattr(value, name)))
                                           for name in _field_names(type(value)) if name not in leave_out)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}     # a dataclass's field names, by its type


def _field_names(cls: type) -> tuple[str, ...]:
    found = _FIELD_NAMES.get(cls)
    if found is None:
        from dataclasses import fields
        found = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return found


# the types a field's value is keyed as itself (what `exact_key` gives them), without asking it
_KEYED_AS_ITSELF = (int, str, bool, float)


def _content_of(item: Any) -> Hashable:
    """A field's value as a key: a dict as its sorted pairs, a list or tuple as a tuple of keys, a dataclass (a
    check's tiled MMA, its given tiled copy) as its `content_key`, each value keyed exactly (`exact_key`: a layout of
    run-time integers is not one of static ones, though they are equal)."""
    if type(item) in _KEYED_AS_ITSELF:     # an int, str, bool or float
        plain: Hashable = item
        return plain
    if isinstance(item, dict):
        return tuple(sorted((k, _content_of(v)) for k, v in item.items()))
    if isinstance(item, (list, tuple)):
        return tuple([_content_of(v) for v in item])
    if hasattr(type(item), "__dataclass_fields__") and not isinstance(item, type):
        return content_key(item, ())
    from ..algebra.memo import exact_key
    return exact_key(item)


def configuration_key(check: CheckSpec, leave_out: tuple[str, ...] = ()) -> tuple[Hashable, ...]:
    """The check's configuration as a key: every field but NOT_CONFIGURATION and `leave_out`."""
    return content_key(check, NOT_CONFIGURATION + leave_out)


_ATOM_KEYS: dict[int, tuple[Hashable, ...]] = {}    # id(atom) -> its atom_key, while the atom lives


def atom_key(atom: MMAAtomSpec | CopyAtomSpec | None) -> tuple[Hashable, ...] | None:
    """An atom's definition as a key, wherever it is written (equal atoms of two spec files are one key).  Made once
    an atom object: the loader builds an atom and nothing changes it after (as a Layout is never changed), and every
    check of a spec file that names it shares the object; the entry goes when the atom does."""
    if atom is None:
        return None
    found = _ATOM_KEYS.get(id(atom))
    if found is None:
        import weakref
        found = _ATOM_KEYS[id(atom)] = content_key(atom, NOT_ATOM_CONTENT)
        weakref.finalize(atom, _ATOM_KEYS.pop, id(atom), None)
    return found


S = TypeVar("S")


def per_atom(make: Callable[[MMAAtomSpec], S]) -> Callable[[MMAAtomSpec], S]:
    """`make` remembered per process by the atom's definition (`atom_key`): an atom defined alike in any number of
    spec files (a kind's side of it, `ShuffleSide`, `MetadataSide`) is made once."""
    made: dict[Hashable, S] = {}

    def remembered(atom: MMAAtomSpec) -> S:
        key = atom_key(atom)
        if key not in made:
            made[key] = make(atom)
        return made[key]
    return remembered


@dataclass
class Group:
    """Theorems that share one build of CuTe's objects.  `build` may raise ConfigurationRefused (CuTe's rule:
    every theorem of `ids` is refused) or fail (every theorem of `ids` is an internal error); `review`, when
    given, sees the group's decided theorems and returns those that count (the rest it files as findings).

    `shared`, when given, names everything the group's build and plans read (by content: `configuration_key`,
    `atom_key`): groups of one process with equal keys decide alike, so the engine decides the group once and gives
    the other checks its results when every theorem was proved (a proof names no check's suspects)."""
    ids: tuple[TheoremId, ...]
    build: Callable[[], Planned]
    review: Callable[[list[TheoremResult]], list[TheoremResult]] | None = None
    shared: tuple[Hashable, ...] | None = None


@dataclass
class Context:
    """What planning a check may use and add to: the settings, the check's suspects, and its result's lines of
    information and findings (both description, never a verdict)."""
    settings: Settings
    suspects: Suspects
    info: list[str] = field(default_factory=list)
    findings: list[TheoremResult] = field(default_factory=list)


@dataclass(frozen=True)
class ExplainRequest:
    """`explain`'s command line, for whichever kind the check is: the element to trace."""
    path: str
    lane: int | None = None
    value: int | None = None
    instance: tuple[int, ...] = ()
    base: int = 0x1000
    coord: tuple[int, ...] | None = None
    stage: int = 0


class ExplainError(Exception):
    """A request the check cannot answer (a lane out of range, the wrong options for its kind): one line, exit 2."""


class DrawError(Exception):
    """A picture the check cannot have (nothing to draw, no model for its tile): one line, exit 2."""


@dataclass(frozen=True)
class Change:
    """One field of a check (or of an atom) changed by `--suggest`: the spec lines and the C++ to write."""
    field: str        # the spec key (or "atom NAME a")
    old: str
    new: str
    cpp: str          # the C++ to write instead

    def diff(self) -> list[str]:
        return [f"-    {self.field}: {self.old}", f"+    {self.field}: {self.new}"]


Neighbour = tuple[Change, dict[str, Any]]     # a change, and the check's fields it replaces


class Kind(Protocol):
    """A check kind (see the module's docstring)."""

    name: str                          # the kind's name in reports (CheckKind's value for the built-in kinds)
    precedence: int                    # the loader asks kinds in this order whether a check is theirs
    keys: tuple[str, ...]              # spec keys only checks of this kind read
    summary_line: str                  # what a check of the kind runs, for the README and `--help`
    needs_result_to_draw: bool         # `draw` proves the check first, to outline its counterexample

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        """Whether the check whose keys are `fields` (naming MMA atom `mma`, if any) is of this kind."""
        ...

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        """The kind's typed configuration: `named`'s common fields and the kind's own keys, validated."""
        ...

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        """The check's theorems, in groups decided in order."""
        ...

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """Write the chain of one element (raises ExplainError, SpecError or ConfigurationRefused)."""
        ...

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        """The pictures `draw` can make of the check, the default first (empty: nothing to draw)."""
        ...

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        """The requested views, a refuted check's counterexample outlined where it names cells."""
        ...

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        """The views that show a refuted check's failure in a report."""
        ...

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        """The kind's own one-field changes `--suggest` tries (after the copy, value type and construction)."""
        ...


class WithoutPictures:
    """What a kind whose checks have no element to trace or draw answers (a fact about threads, stages or bytes):
    `explain` says so in its own words (`explain_what`), and there are no views, figures or neighbours."""

    explain_what: str = ""             # what its report names instead of a trace

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        raise ExplainError(f"check '{check.name}' is {self.explain_what}; explain has no trace for it")

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return ()

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        return []

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        return ()

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


def write_chain(out: TextIO, title: str, lines: list[ChainLine]) -> None:
    """A chain as `explain` prints it: the title, then one aligned label and text a line."""
    out.write(f"{title}\n")
    width = max(len(s.label) for s in lines)
    for s in lines:
        out.write(f"  {s.label:<{width}}  {s.text}\n")
