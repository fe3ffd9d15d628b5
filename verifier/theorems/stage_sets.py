"""Two sides of a pipeline compared (theorem 23's buffer sides, theorem 38's MMAs and loads): the stages each takes
(`stage_indices`, `accumulator_stages`) -- the stages one side takes and the other does not -- and how many stages
past the one whose barrier its thread waited on each side's slices take (`wait_offsets`): each side one number, the
same on both sides.  A barrier at index i tells of one stage of the buffer, full to the reader and empty to the
writer; which stage is the two sides' agreement, so a pipeline whose both sides take stage i + 1 after the barrier of
i renames its stages consistently (harmless), while one side past the other's stage reads or writes a stage its
barrier does not speak for."""
from __future__ import annotations

from dataclasses import dataclass

from ..specfile.fields import stages_text


@dataclass(frozen=True)
class StageSets:
    """The stage indices the writer takes (`written`) and the reader takes (`read`)."""
    written: tuple[int, ...]
    read: tuple[int, ...]

    @property
    def unread(self) -> list[int]:
        """Stages written and never read: a stage's result lost (the reader reads another in its place)."""
        return sorted(set(self.written) - set(self.read))

    @property
    def unwritten(self) -> list[int]:
        """Stages read and never written: read before anything wrote them."""
        return sorted(set(self.read) - set(self.written))

    @property
    def reader_at_fault(self) -> bool:
        """Whom a refutation blames: the reader where it leaves written stages (or nothing is wrong), else the
        writer."""
        return bool(self.unread) or not self.unwritten

    @property
    def first(self) -> int | None:
        """The first stage one side takes and the other does not (the reader's leftovers first)."""
        left = self.unread or self.unwritten
        return left[0] if left else None

    @property
    def failing(self) -> int:
        return len(self.unread) + len(self.unwritten)

    @property
    def size(self) -> int:
        return len(set(self.written) | set(self.read))

    def problem(self, wrote: str) -> str:
        """What is wrong in words (`wrote`: the writer's verb, "filled", "written"); empty where nothing is."""
        if self.unread:
            return f"{stages_text(self.unread)} {wrote} and never read"
        if self.unwritten:
            return f"{stages_text(self.unwritten)} read and never {wrote}"
        return ""


@dataclass(frozen=True)
class WaitOffsets:
    """How many stages past the one whose barrier its thread waited on each side's linked slices take (None: no
    slice of that side linked to a wait)."""
    writer: tuple[int, ...] | None
    reader: tuple[int, ...] | None

    @property
    def several(self) -> tuple[str, tuple[int, ...]] | None:
        """A side (WRITER_SIDE, READER_SIDE) whose slices take the stage at more than one offset from their waits."""
        for side, offsets in ((WRITER_SIDE, self.writer), (READER_SIDE, self.reader)):
            if offsets is not None and len(set(offsets)) > 1:
                return side, offsets
        return None

    @property
    def apart(self) -> bool:
        """Both sides linked, each at one offset, and the offsets differ."""
        return self.writer is not None and self.reader is not None and self.several is None and \
            set(self.writer) != set(self.reader)

    @property
    def holds(self) -> bool:
        return self.several is None and not self.apart

    @property
    def at_fault(self) -> str:
        """The side a refutation blames: the one at several offsets, else the writer where it alone is past its
        waited stage, else the reader."""
        several = self.several
        if several is not None:
            return several[0]
        writer_past = self.writer is not None and set(self.writer) != {0}
        reader_past = self.reader is not None and set(self.reader) != {0}
        return WRITER_SIDE if writer_past and not reader_past else READER_SIDE

    def actual(self, writer: str, reader: str) -> str:
        """What each side takes, in words (`writer`, `reader`: the sides' names)."""
        def taken(name: str, offsets: tuple[int, ...] | None) -> str:
            if offsets is None:
                return f"the {_possessive(name)} slices are linked to no barrier wait"
            found = sorted(set(offsets))
            words = f"stages {' and '.join(map(str, found))}" if len(found) > 1 else f"the stage {found[0]}"
            return f"the {_possessive(name)} slices take {words} past the one whose barrier their thread waited on"
        several = self.several
        text = f"{taken(writer, self.writer)}; {taken(reader, self.reader)}"
        if several is not None:
            name = _possessive(writer if several[0] == WRITER_SIDE else reader)
            return text + f": the {name} slices are not all at one offset from their waits (at most one offset is " \
                          "the stage their barrier speaks for)"
        if self.apart:
            return text + ": a barrier's stage is not the same on both sides (one side reads or writes a stage its " \
                          "barrier does not speak for)"
        return text

    @property
    def point(self) -> dict[str, int] | None:
        several = self.several
        if several is not None:
            return {"stage_offset": max(several[1])}
        if self.apart and self.writer is not None and self.reader is not None:
            return {"stage_offset": max(set(self.reader) ^ set(self.writer))}
        return None


WRITER_SIDE, READER_SIDE = "writer", "reader"


def _possessive(name: str) -> str:
    """`writer` -> `writer's`, `MMAs` -> `MMAs'`."""
    return name + ("'" if name.endswith("s") else "'s")


__all__ = ["StageSets", "WaitOffsets", "WRITER_SIDE", "READER_SIDE"]
