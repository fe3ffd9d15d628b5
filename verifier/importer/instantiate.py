"""From one MMA_Traits / Copy_Traits specialisation to the atoms it defines: an explicit specialisation is
one atom; a partial one is instantiated (instances.py says with what), and instances the Op's own
static_asserts refuse are reported instead of imported.
"""
from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from ..algebra.cpp_syntax import TypeName, read_cpp, type_text
from ..algebra.types import type_bits
from .instances import COPY_CLASS_ARGS, COPY_MEMBERS, MMA_CLASS_ARGS, MMA_INT_ARGS, MMA_MEMBERS
from .not_imported import drawn_only_reason, extra_arguments_reason
from .report import Failure, Note
from .resolver import Resolver, ResolveError, normalize, split_top, template_head
from .scanner import AliasDecl, StaticAssert, StructDecl, TemplateParam

_WORD = re.compile(r"\w+")     # an identifier or number, as a whole word


@dataclass
class Instance:
    name: str                                   # the atom's name in the spec
    decl: StructDecl
    op: str                                     # the Op's name (template name for a partial specialisation)
    bindings: dict[str, Any] = field(default_factory=dict)
    targs: list[str] = field(default_factory=list)   # C++ spelling of the template arguments
    note: str | None = None
    refused: str | None = None                  # the Op's static_assert that refuses this instance when used
    op_bindings: dict[str, Any] = field(default_factory=dict)   # the Op's parameters (its asm's `if constexpr`)


@dataclass
class Instances:
    atoms: list[Instance] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)


TMA_TILED_LOAD = re.compile(r"^SM90_TMA_LOAD(_OP)?$")   # the copy version 2 checks name as SM90_TMA_LOAD

# an extra argument of MMA_Traits<Op, ...> that passes one of the traits' own parameters: the parameter itself,
# cute::C<P> / Int<P>, or cute::integral_constant<T, P> (CUTLASS 4.2's MMA_Traits<SM100_MMA_F8F6F4_SS, a_type, b_type,
# c_type, cute::C<M>, cute::C<N>, cute::integral_constant<UMMA::Major, a_major>, ...>: a non-template Op whose
# traits carry the atom's parameters, as CUTLASS 4.7's SM100_MMA_F8F6F4_SS<a_type, ..., M, N, ...> template does)
_PASSED_PARAMETER = re.compile(r"^(?:(?:cute::)?(?:C|Int)<(\w+)>|(?:cute::)?integral_constant<[\w:]+,(\w+)>|(\w+))$")


def instances_of(decl: StructDecl, resolver: Resolver) -> Instances:
    out = Instances()
    args = _without_pack(decl, split_top(decl.args or ""))
    where = (decl.header, decl.line)
    if len(args) != 1:
        name = normalize(args[0]) if args else decl.name
        if TMA_TILED_LOAD.match(name):
            out.notes.append(Note(name, *where, "the tiled TMA load: not a warp-level atom; version 2 checks prove "
                                                "it as `copy: SM90_TMA_LOAD` (its box and swizzle come from the "
                                                "tensor map make_tma_copy builds, hardware/tma.py)"))
            return out
        passed = _passed_parameters(decl, args[1:])
        if passed is not None and not template_head(name)[1]:
            _instantiate_used(decl, name, passed, resolver, out)
            return out
        out.failures.append(Failure(name, *where, extra_arguments_reason(decl.name, name, args[1:])))
        return out
    if not decl.params:
        out.atoms.append(Instance(normalize(args[0]), decl, normalize(args[0])))
        return out
    head, pargs = template_head(args[0])
    head = normalize(head)
    names = [p.name for p in decl.params]
    if pargs is None or any(a not in names for a in pargs) or len(set(pargs)) != len(pargs):
        out.failures.append(Failure(normalize(args[0]), *where, f"the specialisation {normalize(args[0])} is not "
                                    "Op<its template parameters>, so its arguments cannot be chosen"))
        return out
    _instantiate_used(decl, head, pargs, resolver, out)
    return out


def _without_pack(decl: StructDecl, args: list[str]) -> list[str]:
    """MMA_Traits<Op, pack...> with `pack` a parameter pack of the traits: the atom CuTe makes of MMA_Atom<Op> has
    the pack empty (SM100_MMA_*_SS_SPARSE: its `sparse_args...`, the metadata address, are set by `.with(E)` when the
    kernel runs), so the arguments without it."""
    if len(args) == 2 and decl.name == "MMA_Traits":
        pack = re.sub(r"\s+", "", args[1])
        if pack.endswith("...") and any(p.kind == "pack" and p.name == pack[:-3] for p in decl.params or []):
            return args[:1]
    return args


def _passed_parameters(decl: StructDecl, extra: list[str]) -> list[str] | None:
    """The traits' parameters that MMA_Traits<Op, extra...> passes, in order; None unless every extra argument
    passes one distinct parameter and every parameter is passed."""
    if decl.name != "MMA_Traits" or not decl.params:
        return None
    names = [p.name for p in decl.params]
    passed = []
    for text in extra:
        m = _PASSED_PARAMETER.match(re.sub(r"\s+", "", text))
        name = next((g for g in m.groups() if g), None) if m else None
        if name is None or name not in names:
            return None
        passed.append(name)
    return passed if sorted(passed) == sorted(names) else None


def _instantiate_used(decl: StructDecl, head: str, pargs: list[str], resolver: Resolver, out: Instances) -> None:
    """The atoms of Op<pargs...>: one when no defining member names a parameter, else one per instance."""
    texts = _defining_texts(decl) + [decl.bases]
    words = {w for t in texts for w in _WORD.findall(t)}
    used = [p for p in pargs if p in words]
    if not used:
        note = f"its layouts and value types do not depend on {', '.join(pargs)}: one atom for all of them"
        out.atoms.append(Instance(head, decl, head, note=note))
        return
    _instantiate(decl, head, pargs, used, resolver, out)
    if not (out.atoms or out.failures or out.notes):     # never drop a definition in silence
        out.failures.append(Failure(head, *(decl.header, decl.line), "no instance of this template could be formed"))


def _defining_texts(decl: StructDecl) -> list[str]:
    """The texts of the members that define the atom, and of the members they name (transitively)."""
    own = {m.name: m.value for m in decl.members if isinstance(m, AliasDecl)}
    todo = [n for n in (MMA_MEMBERS if decl.name == "MMA_Traits" else COPY_MEMBERS) if n in own]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        named = set(_WORD.findall(own[name]))      # the identifiers it names (as whole words)
        todo += [n for n in own if n not in seen and n in named]
    return [own[n] for n in seen]


def _op_params(head: str, resolver: Resolver, n: int) -> list[TemplateParam]:
    alias = resolver.alias_decl(head, None)
    if alias is not None and alias.params is not None:
        return alias.params
    struct = resolver.arch_struct(head)
    params = struct.params if struct is not None and struct.params else []
    return params if len(params) >= n else []


def _instantiate(decl: StructDecl, head: str, pargs: list[str], used: list[str], resolver: Resolver,
                 out: Instances) -> None:
    where = (decl.header, decl.line)
    drawn_only = drawn_only_reason(head) if decl.name == "MMA_Traits" else None
    if drawn_only is not None:      # the PTX ISA draws what the atom defines only in figures (not_imported.py)
        out.failures.append(Failure(head, *where, drawn_only))
        return
    op_params = _op_params(head, resolver, len(pargs))
    params = {p.name: p for p in decl.params or []}
    struct = resolver.arch_struct(head)
    asserts = [m for m in (struct.members if struct else []) if isinstance(m, StaticAssert)]
    choices: list[list[str] | None] = []     # per position: candidate spellings, or None = the Op's default
    class_positions: list[int] = []
    missing: list[str] = []
    is_mma = decl.name == "MMA_Traits"
    table = MMA_CLASS_ARGS.get(head.split("::")[-1]) if is_mma else None
    int_rule = MMA_INT_ARGS.get(head.split("::")[-1], {}) if is_mma else {}
    for i, p in enumerate(pargs):
        op_p = op_params[i] if i < len(op_params) else None
        if table is not None and params[p].kind == "class":
            class_positions.append(i)            # the table spells every type, defaults included
            choices.append([p])                  # replaced by each combination's type below
        elif p in used and p in int_rule:
            choices.append([str(v) for v in int_rule[p]])
        elif op_p is not None and op_p.default is not None:
            choices.append(None)
        elif p not in used:
            choices.append([p])                # not needed to read the atom; named as written
        elif params[p].kind == "class":
            class_positions.append(i)
            choices.append([p])
        else:
            values = _asserted_values(op_p.name if op_p else p, asserts) or resolver.enumerators(params[p].kind)
            if not values:
                missing.append(f"{p} ({params[p].kind})")
            choices.append(values)
    combos = _class_combos(decl.name, head, len(class_positions))
    if class_positions and not combos:
        missing += [f"{pargs[i]} (class)" for i in class_positions]
    if missing:
        out.failures.append(Failure(head, *where, f"no instantiation rule for template parameter(s) "
                                    f"{', '.join(missing)} (see verifier/importer/instances.py)"))
        return
    value_lists = [c if c is not None else [None] for c in choices]
    unused = [p for p in pargs if p not in used and choices[pargs.index(p)] is not None]
    note = (f"its layouts and value types do not depend on {', '.join(unused)}: one atom for all of them"
            if unused else None)
    for types in combos or [()]:
        for chosen in itertools.product(*value_lists):
            spelled: list[str | None] = list(chosen)
            for pos, t in zip(class_positions, types):
                spelled[pos] = t
            _one(decl, head, pargs, op_params, spelled, asserts, resolver, out, unused, note)


def _class_combos(kind: str, head: str, n: int) -> list[tuple[str, ...]] | None:
    if n == 0:
        return [()]
    if kind == "MMA_Traits":
        table = MMA_CLASS_ARGS.get(head.split("::")[-1])
        return [t for t in table if len(t) == n] if table else None
    return [(t,) * n for t in COPY_CLASS_ARGS]


def _asserted_values(name: str, asserts: list[StaticAssert]) -> list[str]:
    """`static_assert(N == 8 || N == 16 ...)` lists the values a non-type parameter may take."""
    for a in asserts:
        terms = [t.strip() for t in a.condition.split("||")]
        vals = [re.fullmatch(rf"\(?\s*{re.escape(name)}\s*==\s*([\w:]+)\s*\)?", t) for t in terms]
        if terms and all(vals):
            return [v.group(1) for v in vals if v]
    return []


def _one(decl: StructDecl, head: str, pargs: list[str], op_params: list[TemplateParam], spelled: list[str | None],
         asserts: list[StaticAssert], resolver: Resolver, out: Instances, unused: list[str] | None = None,
         note: str | None = None) -> None:
    explicit = [s for s in spelled]
    while explicit and explicit[-1] is None:
        explicit.pop()
    # the name leaves out the trailing parameters the atom does not depend on (UMMA's Major, named as written)
    not_named = set(unused or [])
    named = list(explicit)
    while named and (named[-1] is None or pargs[len(named) - 1] in not_named):
        named.pop()
    name = f"{head}<{','.join(str(s) for s in named)}>" if named else head
    where = (decl.header, decl.line)
    try:
        targs = [_value(s) for s in explicit]
        if op_params:
            op_bindings = resolver.bind(op_params, targs, decl.header, head)
            values = [op_bindings[p.name] for p in op_params[:len(pargs)]]
        else:
            op_bindings, values = {}, targs
    except (ResolveError, KeyError) as e:
        out.failures.append(Failure(name, *where, f"cannot bind the template arguments: {e}"))
        return
    refused = None
    bindings = {p: v for p, v in zip(pargs, values)}
    # the traits' own static_asserts fire when CuTe builds the atom (MMA_Traits<SM100_MMA_MXF4_SS<...>>: VS = 32
    # needs ue8m0 scale factors): such an instance is no atom
    own = [(m, bindings) for m in decl.members if isinstance(m, StaticAssert)] if decl.name == "MMA_Traits" else []
    for a, scope in [(a, op_bindings) for a in asserts] + own:
        if _holds(a.condition, scope) is False:
            text = f'static_assert({a.condition}' + (f', "{a.message}"' if a.message else "") + ")"
            if "/arch/" in a.header.replace("\\", "/") and decl.name != "MMA_Traits":
                # the Op's own assert fires when its copy() is used, not when CuTe builds the traits (CuTe
                # prints these atoms): import them, and say the Op refuses this instance.  An MMA Op's values
                # come from instances.py's rules: one the Op refuses is a value of the rule, not an atom
                refused = f"the Op refuses this instance when used: {text} fails ({a.header}:{a.line})"
                out.notes.append(Note(name, *where, f"imported (its check documents it as failing), but {refused}"))
                continue
            out.notes.append(Note(name, *where, f"not instantiated: {text} fails ({a.header}:{a.line})"))
            return
    out.atoms.append(Instance(name, decl, head, bindings, [str(s) for s in explicit], note=note, refused=refused,
                              op_bindings=op_bindings))


def _value(spelling: str | None) -> Any:
    if spelling is None:     # a parameter left to its default before one that is given: C++ cannot spell it
        raise TypeError("a template argument left to its default precedes one that is given")
    if re.fullmatch(r"-?\d+", spelling):
        return int(spelling)
    if "::" in spelling and spelling.split("::")[-1][:1].isupper():
        return TypeName(spelling, [])            # an enumerator such as GMMA::Major::K
    return read_cpp(spelling)


# --- static_assert conditions ----------------------------------------------------------------------------

_COND_TOKEN = re.compile(r"""\s*(?:
    (?P<same>is_same_v\s*<\s*(?P<s1>[\w:]+)\s*,\s*(?P<s2>[\w:]+)\s*>)
  | (?P<sizeof>sizeof\s*\(\s*(?P<sz>[\w:]+)\s*\))
  | (?P<bitsv>sizeof_bits_v\s*<\s*(?P<bv>[\w:]+)\s*>)
  | (?P<bits>sizeof_bits\s*<\s*(?P<bt>[\w:]+)\s*>\s*::\s*value)
  | (?P<num>\d+)
  | (?P<name>[A-Za-z_][\w]*(?:::[A-Za-z_]\w*)*)
  | (?P<op>\|\||&&|==|!=|<=|>=|[<>()!%])
)""", re.X)

_QUALIFIED_TRAIT = re.compile(r"\b(?:cute|std|cutlass)::(?=(?:is_same_v|sizeof_bits_v|sizeof_bits)\b)")
_NAMESPACE = re.compile(r"\b(?:cutlass|cute|std|detail)::")

_ALLOWED = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Compare, ast.Eq, ast.NotEq,
            ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Constant, ast.BinOp, ast.Mod)   # `N % 16 == 0` (UMMA's N)


def condition_holds(condition: str, bindings: dict[str, Any]) -> bool | None:
    """Whether a static_assert's (or `if constexpr`'s) condition holds for the bound parameters: None when it
    cannot be decided."""
    return _holds(condition, bindings)


def _holds(condition: str, bindings: dict[str, Any]) -> bool | None:
    """True / False when the condition only uses the bound parameters, their sizes and literals; else None."""
    out: list[str] = []
    pos = 0
    condition = _boolean_and(_QUALIFIED_TRAIT.sub("", condition))
    try:
        while pos < len(condition):
            m = _COND_TOKEN.match(condition, pos)
            if not m or m.end() == pos:
                return None if condition[pos:].strip() else _eval(" ".join(out))
            pos = m.end()
            if m.group("same"):
                out.append(str(_type_key(m.group("s1"), bindings) == _type_key(m.group("s2"), bindings)))
            elif m.group("sizeof"):      # C++'s sizeof: whole bytes, one at least (CuTe's 4- and 6-bit types
                # are structs of one byte: sizeof(float_e2m1_unpacksmem_t) == 1, its sizeof_bits 4)
                out.append(str(max(1, -(-_bits(m.group("sz"), bindings) // 8))))
            elif m.group("bitsv") or m.group("bits"):
                out.append(str(_bits(m.group("bv") or m.group("bt"), bindings)))
            elif m.group("num"):
                out.append(m.group("num"))
            elif m.group("name"):
                out.append(_name(m.group("name"), bindings))
            else:
                op = m.group("op")
                out.append({"||": " or ", "&&": " and ", "!": " not "}.get(op, op))
    except (KeyError, ValueError):
        return None
    return _eval(" ".join(out))


_BOOLEAN_GROUP = re.compile(r"==|!=|<=|>=|<|>|&&|\|\||is_same_v|\btrue\b|\bfalse\b")


def _boolean_and(condition: str) -> str:
    """`(P) & (Q)` with P and Q both boolean (each a comparison, an is_same_v, a && / || of them) as `(P) && (Q)`:
    the same value in C++ (SM103_MXF4_ULTRA_SS_VS's static_assert writes `((VS == 32) & (...)) || (VS == 16)`).  Any
    other `&` is left as written, which the condition reader does not read (the condition is then undecided)."""
    out, i = "", 0
    while True:
        amp = condition.find("&", i)
        if amp < 0:
            return out + condition[i:]
        if condition[amp:amp + 2] == "&&":
            out, i = out + condition[i:amp + 2], amp + 2
            continue
        left, right = _group_before(condition, amp), _group_after(condition, amp + 1)
        if left is not None and right is not None and _BOOLEAN_GROUP.search(left) and _BOOLEAN_GROUP.search(right):
            out, i = out + condition[i:amp] + "&&", amp + 1
        else:
            out, i = out + condition[i:amp + 1], amp + 1


def _group_before(text: str, at: int) -> str | None:
    """The parenthesised group that ends just before `at` (blanks between), or None."""
    end = len(text[:at].rstrip()) - 1
    if end < 0 or text[end] != ")":
        return None
    depth = 0
    for j in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(text[j], 0)
        if depth == 0:
            return text[j + 1:end]
    return None


def _group_after(text: str, at: int) -> str | None:
    """The parenthesised group that starts at `at` (blanks before), or None."""
    start = at + len(text[at:]) - len(text[at:].lstrip())
    if start >= len(text) or text[start] != "(":
        return None
    depth = 0
    for j in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return text[start + 1:j]
    return None


def _type_key(name: str, bindings: dict[str, Any]) -> str:
    """A type of `is_same_v<...>` without namespaces: a bound parameter's type, or a type written out (a known
    one, or one its namespace marks as a type); KeyError for anything else (an unbound parameter)."""
    value = bindings.get(name)
    if value is None:
        if "::" not in name:
            type_bits(name)              # KeyError unless a known type
        return _NAMESPACE.sub("", name)
    if not isinstance(value, TypeName):
        raise KeyError(name)
    return _NAMESPACE.sub("", type_text(value))


def _bits(name: str, bindings: dict[str, Any]) -> int:
    value = bindings.get(name, name)
    bits = getattr(value, "bits", None)
    return bits if isinstance(bits, int) else type_bits(type_text(value))


def _name(name: str, bindings: dict[str, Any]) -> str:
    if name in ("true", "false"):
        return "True" if name == "true" else "False"
    if name in bindings:
        value = bindings[name]
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str) and "::" in value:
            return repr(value.split("::")[-1])        # enumerators compare by name
        raise KeyError(name)
    if "::" in name:
        return repr(name.split("::")[-1])
    raise KeyError(name)


def _eval(expr: str) -> bool | None:
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError:
        return None
    if not all(isinstance(n, _ALLOWED) for n in ast.walk(tree)):
        return None
    return bool(eval(compile(tree, "<static_assert>", "eval"), {"__builtins__": {}}, {}))
