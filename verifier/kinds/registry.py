"""The registry of check kinds: each kind registers itself once (`register(KIND)` at the end of its kind.py);
the loader, the engine, the reports, `draw` and `--suggest` look a check's kind up here.

The built-in kinds are found by module name (BUILTIN_KINDS) the first time the registry is asked, as plugins
are: this module imports none of them, so the spec format's reader below every kind can ask it.  A kind
registered from elsewhere (a test, a user's package) takes part the same way: `register(kind)` before loading.
"""
from __future__ import annotations

import importlib

from ..specfile.fields import Fields
from ..specfile.model import CheckSpec, MMAAtomSpec
from .base import Kind

# the modules that register the built-in kinds: MMA and copy atoms, tiled (SM80-style) paths, MMA operands read
# from shared memory through descriptors (wgmma, tcgen05.mma), tensor-memory copies (tcgen05.ld / st)
BUILTIN_KINDS = ("verifier.kinds.atom.kind", "verifier.kinds.tiled.kind", "verifier.kinds.smem_mma.kind",
                 "verifier.kinds.tmem.kind", "verifier.kinds.buffer.kind", "verifier.kinds.family.kind",
                 "verifier.kinds.scale.kind", "verifier.kinds.sparse.kind",
                 "verifier.kinds.blockwise.kind", "verifier.kinds.mixed_scale.kind", "verifier.kinds.transpose.kind",
                 "verifier.kinds.shuffle.kind", "verifier.kinds.slice.kind",
                 "verifier.kinds.subtile.kind", "verifier.kinds.transaction.kind", "verifier.kinds.subtile_order.kind",
                 "verifier.kinds.elementwise.kind", "verifier.kinds.thread_gemm.kind",
                 "verifier.kinds.thread_gemm.fills_kind")

_KINDS: dict[str, Kind] = {}
_builtins_loaded = False


class KindError(Exception):
    """A kind registered twice, or a check whose kind no registered kind is."""


def register(kind: Kind) -> Kind:
    """Add `kind`; a second kind of the same name is refused (a kind is registered once)."""
    if kind.name in _KINDS and _KINDS[kind.name] is not kind:
        raise KindError(f"a check kind named {kind.name!r} is already registered")
    _KINDS[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove a kind registered under `name` (for tests that register their own)."""
    _KINDS.pop(name, None)


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        for module in BUILTIN_KINDS:
            importlib.import_module(module)


def kinds() -> list[Kind]:
    """Every registered kind, in the order the loader asks them (precedence, then name)."""
    _load_builtins()
    return sorted(_KINDS.values(), key=lambda k: (k.precedence, k.name))


def kind_named(name: str) -> Kind:
    _load_builtins()
    if name not in _KINDS:
        raise KindError(f"no check kind named {name!r} is registered")
    return _KINDS[name]


def kind_of(check: CheckSpec) -> Kind:
    """The kind a loaded check is (its configuration's class says it)."""
    return kind_named(check.kind)


def recognise(fields: Fields, mma: MMAAtomSpec | None) -> Kind:
    """The first kind, by precedence, whose check the keys `fields` describe."""
    for kind in kinds():
        if kind.recognises(fields, mma):
            return kind
    raise KindError(f"no registered check kind reads {fields.what}")


def atomless_keys() -> tuple[str, ...]:
    """The keys of the kinds whose checks name no atom (`atomless = True`: what they prove involves none)."""
    return tuple(k for kind in kinds() if getattr(kind, "atomless", False) for k in kind.keys)


def kind_keys() -> tuple[str, ...]:
    """Every key some kind reads, each once, in the order the kinds are asked."""
    return tuple(dict.fromkeys(k for kind in kinds() for k in kind.keys))
