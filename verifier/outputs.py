"""A command's output file is never one of its inputs: `import-kernel K.cu -o K.cu`, `draw SPEC -o SPEC` and
`import-dsl IR -o IR` are refused (one line, exit 2) before anything is written."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .echo import quote_path


def overwrites_input(output: Path | str | None, inputs: Iterable[Path | str]) -> str | None:
    """The error line when `output` is one of `inputs` (the same file, however named), else None."""
    if output is None:
        return None
    target = Path(output).resolve()
    for path in inputs:
        if Path(path).resolve() == target:
            return f"-o {quote_path(str(output))} is a file this command reads; refusing to overwrite it"
    return None


__all__ = ["overwrites_input"]
