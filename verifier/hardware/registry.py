"""From an instruction string (as CUTLASS's asm writes it, or in the PTX ISA's qualifier order) to its model.

`ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];` and
`ldmatrix.sync.aligned.m8n8.x4.shared.b16` name the same instruction: operands are dropped and each family
compares the qualifiers the way its PTX ISA section writes them (as a set for ldmatrix, by position for mma).

How a lookup goes (CuTe has one MMA_Traits / Copy_Traits per instruction; here a model module registers one
`InstructionFamily` per instruction family, beside the models it builds):
- the string is parsed once into an `Instruction` (opcode, qualifiers, operands, CuTe atom name);
- the family that claims it is found in a `FamilyTable` (COPY_FAMILIES, MMA_FAMILIES): a family claims PTX
  opcodes (`ldmatrix`, `mma`, `tcgen05`, matched against the instruction) or CuTe atoms (`UniversalCopy`,
  `DefaultCopy`: CUTLASS writes these as the atom itself, so they are matched against the instruction and then
  against the atom's name, and before any PTX family).  A claim belongs to one family of a table: registering a
  second family for it is refused (`FamilyConflict`);
- the family's `parse` turns the instruction into its typed form (None: not one of its instructions, and the
  lookup goes on), and its `build` turns the form and the atom (`ModelQuery`) into the model (None: not
  modelled, and the lookup ends).
The model modules are imported on the first lookup that needs them (the tables name the module registering each
claim), so an SM80 / SM90 lookup imports no Blackwell module (umma, tmem_copy, matrix_copy_sm100) and a
tcgen05 lookup no wgmma.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from typing import Any, Generic, TypeVar

from .base import CopyModel, MMAModel

FormT = TypeVar("FormT")
ModelT = TypeVar("ModelT")                # CopyModel (COPY_FAMILIES) or MMAModel (MMA_FAMILIES)
OperandTypes = dict[str, str]   # {a, b, c, d} -> PTX type qualifier ("f16", or "f16|bf16": any of them)

# the first word and the dotted qualifiers end at blanks, operand lists ({...}, [...]) and the closing ';'
_END_OF_QUALIFIERS = re.compile(r"[\s{\[;]")
# CuTe's atoms: a template name, maybe namespaced, maybe with arguments (`cute::UniversalCopy<uint32_t>`)
_CUTE_ATOM = re.compile(r"^(?:(?:cute|cutlass)::)?([A-Za-z_][A-Za-z_0-9]*)\s*(?:<.*>)?$", re.DOTALL)


class FamilyConflict(ValueError):
    """A family claims an opcode or a CuTe atom another family of the same table already claims."""


class RegistryError(RuntimeError):
    """The table's module index and the families the modules register disagree (a programming error)."""


def qualifiers(instruction: str) -> tuple[str, list[str]]:
    """('ldmatrix', ['sync', 'aligned', 'x4', ...]) with operands and the trailing ';' removed."""
    text = instruction.strip()
    text = _END_OF_QUALIFIERS.split(text, maxsplit=1)[0]
    parts = [p for p in text.split(".") if p]
    if not parts:
        return "", []
    return parts[0].lower(), [p.lower() for p in parts[1:]]


@dataclass(frozen=True)
class Instruction:
    """One instruction string, parsed once: what every family's `parse` starts from."""
    text: str                          # the string, stripped ("" when there is none)
    opcode: str                        # PTX: the first dotted word, lower-cased ("ldmatrix", "mma", "tcgen05")
    qualifiers: tuple[str, ...]        # PTX: the dotted words after it, lower-cased, in the order written
    operands: str                      # what follows the first blank ("{%0, %1}, [%2];"), "" when nothing does
    cute_atom: str                     # CuTe: the template's name without namespace and arguments, "" if none

    @classmethod
    def parse(cls, text: str | None) -> Instruction:
        stripped = (text or "").strip()
        opcode, words = qualifiers(stripped)
        head_and_operands = stripped.split(None, 1)
        atom = _CUTE_ATOM.match(stripped)
        return cls(stripped, opcode, tuple(words), head_and_operands[1] if len(head_and_operands) > 1 else "",
                   atom.group(1) if atom else "")

    @property
    def qualifier_set(self) -> frozenset[str]:
        return frozenset(self.qualifiers)


@dataclass(frozen=True)
class ModelQuery:
    """The atom whose instruction's model is looked up: its instruction and what the atom adds to it."""
    instruction: Instruction
    atom_name: str = ""                                   # CUTLASS's atom (SM80_16x8x16_F32F16F16F32_TN, ...)
    bits_per_thread: int | None = None                    # copies: bits one thread moves (cp.async's cp-size)
    value_bits: int | None = None                         # copies: the value type's bits (element-wise copies)
    shape_mnk: tuple[int, int, int] | None = None         # MMAs: the atom's shape (tcgen05.mma's is not in its text)
    value_types: Mapping[str, tuple[str, int]] | None = None   # MMAs: {a, b, c, d} -> (CuTe type name, bits)

    @cached_property
    def atom(self) -> Instruction:
        """The atom's name read as an instruction string (for the CuTe atom families)."""
        return Instruction.parse(self.atom_name)


@dataclass(frozen=True)
class InstructionFamily(Generic[FormT, ModelT]):
    """The instructions one model module recognises, how it parses them, and how it builds their models."""
    name: str                                                     # for messages: "mma.sync", "ldmatrix / ..."
    parse: Callable[[Instruction], FormT | None]                  # None: not one of this family's instructions
    build: Callable[[FormT, ModelQuery], ModelT | None]           # None: the form is not modelled
    ptx_opcodes: frozenset[str] = frozenset()                     # claimed PTX opcodes (lower case)
    cute_atoms: frozenset[str] = frozenset()                      # claimed CuTe atom templates
    operand_types: Callable[[FormT], OperandTypes | None] | None = None   # MMAs: the PTX types of the operands
    assumed_alignment_bits: Callable[[FormT], int | None] | None = None  # element-wise copies: CuTe's alignment

    def __post_init__(self) -> None:
        if not self.ptx_opcodes and not self.cute_atoms:
            raise ValueError(f"instruction family {self.name!r} claims no PTX opcode and no CuTe atom")

    def spellings(self, query: ModelQuery) -> Iterator[Instruction]:
        """The strings of the query this family claims: the instruction (by its opcode, or as a CuTe atom), then
        the atom's name (as a CuTe atom)."""
        instruction = query.instruction
        if instruction.opcode in self.ptx_opcodes or instruction.cute_atom in self.cute_atoms:
            yield instruction
        if self.cute_atoms:
            atom = query.atom
            if atom.cute_atom in self.cute_atoms:
                yield atom


Registered = InstructionFamily[Any, ModelT]   # a table holds families of any form


class FamilyTable(Generic[ModelT]):
    """The families of one kind of model (copies or MMAs), and the modules that register them.

    `ptx_modules` / `atom_modules` map each claim to the module (of this package) registering the family for it:
    a lookup imports the module first.  Families registered by other modules (tests) are found as well."""

    def __init__(self, kind: str, ptx_modules: Mapping[str, str], atom_modules: Mapping[str, str]) -> None:
        self.kind = kind
        self._ptx_modules = dict(ptx_modules)
        self._atom_modules = dict(atom_modules)
        self._by_opcode: dict[str, Registered[ModelT]] = {}
        self._by_atom: dict[str, Registered[ModelT]] = {}
        self._atom_families: list[Registered[ModelT]] = []   # tried first, in the order registered
        self._ptx_families: list[Registered[ModelT]] = []

    def register(self, family: InstructionFamily[FormT, ModelT]) -> InstructionFamily[FormT, ModelT]:
        """Add a family; refused (FamilyConflict) when one of its claims is another family's.  Returns it."""
        taken = [f"PTX opcode {op!r} ({self._by_opcode[op].name})" for op in sorted(family.ptx_opcodes)
                 if op in self._by_opcode]
        taken += [f"CuTe atom {atom!r} ({self._by_atom[atom].name})" for atom in sorted(family.cute_atoms)
                  if atom in self._by_atom]
        if taken:
            raise FamilyConflict(f"{self.kind} family {family.name!r} claims what is already claimed: "
                                 f"{', '.join(taken)}")
        self._by_opcode.update(dict.fromkeys(family.ptx_opcodes, family))
        self._by_atom.update(dict.fromkeys(family.cute_atoms, family))
        (self._atom_families if family.cute_atoms else self._ptx_families).append(family)
        return family

    def unregister(self, family: Registered[ModelT]) -> None:
        """Remove a family registered before (a test's)."""
        for claims, owners in ((family.ptx_opcodes, self._by_opcode), (family.cute_atoms, self._by_atom)):
            for claim in claims:
                if owners.get(claim) is family:
                    del owners[claim]
        for families in (self._atom_families, self._ptx_families):
            if family in families:
                families.remove(family)

    def module_index(self) -> dict[str, str]:
        """Claim -> the module (of this package) registering its family: PTX opcodes and CuTe atoms."""
        return {**self._ptx_modules, **self._atom_modules}

    def families(self) -> tuple[Registered[ModelT], ...]:
        """The families registered so far, in lookup order."""
        return (*self._atom_families, *self._ptx_families)

    def claimant(self, query: ModelQuery) -> tuple[Registered[ModelT], Any] | None:
        """The family that recognises the query's instruction (or atom), with its parsed form; None if none does."""
        self._load(query)
        for family in self.families():
            for spelling in family.spellings(query):
                form = family.parse(spelling)
                if form is not None:
                    return family, form
        return None

    def model(self, query: ModelQuery) -> ModelT | None:
        """The model of the query's instruction, or None when no family models it."""
        found = self.claimant(query)
        if found is None:
            return None
        family, form = found
        return family.build(form, query)

    def operand_types(self, query: ModelQuery) -> OperandTypes | None:
        """The PTX types of the instruction's operands, or None when no family knows them."""
        found = self.claimant(query)
        if found is None:
            return None
        family, form = found
        return family.operand_types(form) if family.operand_types is not None else None

    def load_all(self) -> None:
        """Import every module of the index (a test's look at the whole table)."""
        for module in sorted({*self._ptx_modules.values(), *self._atom_modules.values()}):
            import_module(f"{__package__}.{module}")

    def _load(self, query: ModelQuery) -> None:
        """Import the modules registering the claims the query may touch (import_module caches)."""
        wanted = [(query.instruction.opcode, self._ptx_modules, self._by_opcode),
                  (query.instruction.cute_atom, self._atom_modules, self._by_atom),
                  (query.atom.cute_atom, self._atom_modules, self._by_atom)]
        for claim, modules, owners in wanted:
            if claim in modules and claim not in owners:
                import_module(f"{__package__}.{modules[claim]}")
                if claim not in owners:
                    raise RegistryError(f"{self.kind} families: module {modules[claim]} registers no family "
                                        f"claiming {claim!r}")


# claim -> the module registering its family (imported on the first lookup that names the claim)
COPY_FAMILIES: FamilyTable[CopyModel] = FamilyTable(
    "copy",
    ptx_modules={"ldmatrix": "matrix_copy", "stmatrix": "matrix_copy", "movmatrix": "matrix_copy",
                 "cp": "vector_copy", "tcgen05": "tmem_copy"},
    atom_modules={"DefaultCopy": "vector_copy", "AutoVectorizingCopy": "vector_copy",
                  "AutoVectorizingCopyWithAssumedAlignment": "vector_copy", "UniversalCopy": "vector_copy"})
MMA_FAMILIES: FamilyTable[MMAModel] = FamilyTable(
    "mma",
    ptx_modules={"mma": "mma_sync", "wgmma": "wgmma", "tcgen05": "umma", "dp4a": "dot_product",
                 "dp2a": "dot_product"},
    atom_modules={"UniversalFMA": "scalar_fma"})


def element_copy_alignment(instruction: str | None, name: str = "") -> int | None:
    """Assumed alignment in bits of DefaultCopy / AutoVectorizingCopy[WithAssumedAlignment<N>], else None: what
    the copy family claiming the instruction (or the atom's name) says of its form."""
    found = COPY_FAMILIES.claimant(ModelQuery(Instruction.parse(instruction), name))
    if found is None:
        return None
    family, form = found
    return family.assumed_alignment_bits(form) if family.assumed_alignment_bits is not None else None


def copy_model(instruction: str | None, name: str = "", bits_per_thread: int | None = None,
               value_bits: int | None = None) -> CopyModel | None:
    """The model of a copy atom's instruction, or None when it is not modelled.  `value_bits` (the copy's
    value type) is needed by the element-wise copies, whose unit is one value."""
    query = ModelQuery(Instruction.parse(instruction), name, bits_per_thread=bits_per_thread, value_bits=value_bits)
    return COPY_FAMILIES.model(query)


def mma_instruction_model(instruction: str | None, atom_name: str = "",
                          shape_mnk: tuple[int, int, int] | None = None,
                          value_types: dict[str, tuple[str, int]] | None = None) -> MMAModel | None:
    """The model of an MMA atom's instruction.  tcgen05.mma carries its M and N in the instruction descriptor,
    not in its text: its model needs the atom's `shape_mnk` (and `value_types`, {a, b, c, d} -> (CuTe name,
    bits), for the descriptor's types)."""
    query = ModelQuery(Instruction.parse(instruction), atom_name, shape_mnk=shape_mnk, value_types=value_types)
    return MMA_FAMILIES.model(query)


def mma_instruction_types(instruction: str | None, atom_name: str = "") -> dict[str, str] | None:
    """The PTX type qualifiers of an MMA instruction's operands {a, b, c, d}, or None when not an mma/wgmma/
    tcgen05.mma.  tcgen05.mma's types are in its instruction descriptor: those its .kind allows, '|'-joined.  An
    atom that names no instruction is looked up by its name, as its model is (a CuTe atom: UniversalFMA<...>)."""
    return MMA_FAMILIES.operand_types(ModelQuery(Instruction.parse(instruction), atom_name))
