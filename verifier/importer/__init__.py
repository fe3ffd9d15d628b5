"""Import CuTe's atoms from CUTLASS's C++ headers into spec files.

`import_cutlass(include_dir, out_dir)` reads include/cute/atom/{mma,copy}_traits*.hpp (and the arch headers
for each Op's asm instruction), writes one spec file per header family (mma_traits_sm80.hpp and
copy_traits_sm80.hpp -> sm80.yaml) and returns an `ImportReport` that names every definition it could not
import, with its header:line and the reason.  `verifier.commands.import_cutlass.main(argv)` is the
`import-cutlass` subcommand: exit 0 when the import ran (unreadable definitions are reported, not fatal), 2 for
bad input.

Modules: scanner (braces and declarations), resolver (names, aliases, traits), instantiate + instances
(template arguments), atoms (records checked as CuTe would), writer (YAML text), report, headers (the import),
kernel / kernel_spec (a kernel's configuration), compare_oracle (against CuTe's printed atoms).
"""
from .headers import ImportInputError, import_cutlass
from .report import Failure, ImportReport, Note

__all__ = ["Failure", "ImportInputError", "ImportReport", "Note", "import_cutlass"]
