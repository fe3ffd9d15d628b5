"""Two sides' stage sets compared, for the facts that a pipeline's writer and reader take the same stages (theorem 23's
`stage_indices`, theorem 38's `accumulator_stages`): the stages one side takes and the other does not."""
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


__all__ = ["StageSets"]
