"""`sweep:` (format version 2): one check written once for a product of values.

    checks:
      warps{w}_{operand}_ldsm_x4:
        mma: SM80_16x8x16_F32F16F16F32_TN
        copy: SM75_U32x4_LDSM_N
        value_type: half_t
        smem: "tile_to_shape({atom}, (128,64))"
        sweep:
          w: {1: [1,1,1], 2: [2,1,1], 4: [2,2,1]}      # labelled values: the label names the check
          operand: [A, B]                             # plain values: the value is its own label
          atom: {k128: "Sw<3,3,3> o (8,64):(64,1)"}

A swept variable that is a check key sets that key; a variable whose values are mappings sets the check keys they
name together (a labelled group: `variant: {kmajor: {copy: ..., smem: ...}, mnmajor: {...}}`), and a group's other
entries are variables of their own (`{major}` below a group `{n: {major: kmajor, ...}}`); every variable may
also appear as `{name}` inside the check's
name and its string values (a layout, the description), where it is replaced by its value (a scalar) and, in the
name, by its label.  A variable with more than one value that the name does not mention adds `_<label>` to it.
Every combination is one check, in the order written (the first variable varies slowest).  Errors point at the
template's lines: a field's value where it is written, a swept value where it is listed.
"""
from __future__ import annotations

import functools
import itertools
import re
from typing import Any, Callable

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from .model import Loc, SpecError
from .vocabulary import FAMILY_KEY

SWEEP_KEY = "sweep"
MAPPING_KEYS = ("copy_mma", "descriptor")   # check keys whose value is a mapping: sweeping them is not a group
MAX_SWEEP_CHECKS = 4096                     # checks one sweep may expand into
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LABEL = re.compile(r"[A-Za-z0-9_.+-]+")

Value = tuple[str, Any, Loc]                # (label, value, where the value is written)


def _scalar(x: Any) -> bool:
    return isinstance(x, (str, int, float)) and not isinstance(x, bool)


def axes(f: Any, body: CommentedMap) -> list[tuple[str, list[Value]]]:
    """The sweep's variables and their (label, value, location), validated."""
    table, where = body[SWEEP_KEY], f.value(body, SWEEP_KEY)
    if not isinstance(table, CommentedMap) or not table:
        raise SpecError(where, "'sweep' must be a mapping of variables to their values (a list, or a mapping of "
                               "labels to values)")
    out: list[tuple[str, list[Value]]] = []
    for var, values in table.items():
        at = f.key(table, var)
        if not isinstance(var, str) or not _VARIABLE.fullmatch(var) or var == SWEEP_KEY:
            raise SpecError(at, "a sweep variable is a name of letters, digits and _ (not starting with a digit)")
        if isinstance(values, CommentedSeq) and values:
            items: list[Value] = []
            for i, v in enumerate(values):
                if not _scalar(v):
                    raise SpecError(f.item(values, i), f"sweep variable '{var}': a listed value must be a number or "
                                                       "a string; give a list or mapping value a label "
                                                       f"({var}: {{label: value}})")
                items.append((str(v), v, f.item(values, i)))
        elif isinstance(values, CommentedMap) and values:
            items = []
            for label, v in values.items():
                if not _scalar(label) or not _LABEL.fullmatch(str(label)):
                    raise SpecError(f.key(values, label), f"sweep variable '{var}': a label is a word of letters, "
                                                          "digits, _ . + -")
                items.append((str(label), v, f.value(values, label)))
        else:
            raise SpecError(at, f"sweep variable '{var}' must have a non-empty list of values, or a mapping of "
                                "labels to values")
        if len({label for label, _, _ in items}) != len(items):
            raise SpecError(at, f"sweep variable '{var}' lists one label twice")
        out.append((var, items))
    total = 1
    for _, items in out:
        total *= len(items)
    if total > MAX_SWEEP_CHECKS:
        raise SpecError(where, f"the sweep expands into {total} checks; at most {MAX_SWEEP_CHECKS} are supported")
    return out


SUBSTITUTION_ROUNDS = 4        # a variable's value may name another variable (a group's atom naming {b}, {w})
MAX_EXPANDED_TEXT = 10_000     # characters a substituted string may grow to (values naming values: no blow-up)


class ExpansionTooLong(ValueError):
    """A substituted string grew beyond MAX_EXPANDED_TEXT."""


def _substitute(text: str, binding: dict[str, Value]) -> str:
    """`{var}` in a string: a scalar value's text, or the label of a list or mapping value; repeated while a
    replacement names a variable in turn."""
    def one(m: re.Match[str]) -> str:
        if m.group(1) not in binding:
            return m.group(0)
        label, value, _ = binding[m.group(1)]
        return str(value) if _scalar(value) else label
    for _ in range(SUBSTITUTION_ROUNDS):
        replaced = PLACEHOLDER.sub(one, text)
        if len(replaced) > MAX_EXPANDED_TEXT:
            raise ExpansionTooLong(f"a string grows beyond {MAX_EXPANDED_TEXT} characters as its placeholders are "
                                   "replaced")
        if replaced == text:
            break
        text = replaced
    return text


def rewritten(body: CommentedMap, skip: str, rewrite: Callable[[str], str]) -> CommentedMap:
    """A copy of a check's body without key `skip`, each string value passed through `rewrite`, each key where it
    was written (errors in the copy point at the template's lines)."""
    m = CommentedMap()
    m.lc.line, m.lc.col = body.lc.line, body.lc.col
    for k, v in body.items():
        if k == skip:
            continue
        m[k] = rewrite(v) if isinstance(v, str) else v
        m.lc.add_kv_line_col(k, list(body.lc.data.get(k, [body.lc.line, body.lc.col] * 2)))
    return m


def _scalar_list(v: Any) -> bool:
    return isinstance(v, list) and all(_scalar(x) for x in v)


def _shown(v: Any) -> str:
    """A value as a placeholder shows it: a list of numbers or strings as YAML's flow style writes it."""
    return "[" + ", ".join(map(str, v)) + "]" if _scalar_list(v) else str(v)


def _placeholders(name: str, body: CommentedMap) -> set[str]:
    """The variables the check's name and strings name."""
    refs = set(PLACEHOLDER.findall(name))
    for k, v in body.items():
        if k != SWEEP_KEY and isinstance(v, str):
            refs.update(PLACEHOLDER.findall(v))
    return refs


def _all_set(name: str, refs: set[str], variables: list[tuple[str, list[Value]]], groups: set[str],
             chosen: dict[str, Value], set_here: set[str]) -> None:
    """Every placeholder `refs` of the check is set for this combination: a group's entries may set different
    variables, and one that leaves out a variable the check uses is bad input at that entry."""
    for ref in sorted(refs - set_here):
        for var, items in variables:
            if var in groups and any(ref in group for _, group, _ in items):
                label, _, at = chosen[var]
                raise SpecError(at, f"sweep variable '{var}': its entry '{label}' does not set {ref}, which check "
                                    f"'{name}' uses as {{{ref}}} (its other entries set it)")


def _name(name: str, variables: list[tuple[str, list[Value]]], binding: dict[str, Value]) -> str:
    """The template's name with each `{var}` replaced by its label, and `_<label>` added for each variable with
    more than one value that the name does not mention (a group is mentioned by any of its entries)."""
    mentioned = set(PLACEHOLDER.findall(name))
    out = PLACEHOLDER.sub(lambda m: binding[m.group(1)][0], name)
    for var, items in variables:
        members = {str(k) for _, v, _ in items if isinstance(v, CommentedMap) for k in v}
        if len(items) > 1 and var not in mentioned and not members & mentioned:
            out += f"_{binding[var][0]}"
    return out


def expand(f: Any, name: str, body: CommentedMap, loc: Loc, check_keys: tuple[str, ...],
           valid_name: Callable[[str, Loc], None], wanted: Callable[[str], bool] | None = None
           ) -> list[tuple[str, CommentedMap | None, Loc]]:
    """The checks one swept template stands for: (name, body with the variables set, the template's location);
    the body of a check not `wanted` is not built (None)."""
    variables = axes(f, body)
    groups = {var for var, items in variables
              if var not in MAPPING_KEYS and all(isinstance(v, CommentedMap) for _, v, _ in items)}
    derived = {str(k) for var, items in variables if var in groups for _, g, _ in items for k in g
               if k not in check_keys}
    set_keys = {str(k) for var, items in variables if var in groups for _, g, _ in items for k in g
                if k in check_keys} | {var for var, _ in variables if var in check_keys}
    written = {str(k) for k in body if k in check_keys and k != SWEEP_KEY}
    known = {var for var, _ in variables} | derived | set_keys | written   # a check key may be named as {key}
    family = body.get(FAMILY_KEY)
    if isinstance(family, CommentedMap):     # a swept family: its parameters are the family's to replace
        known |= {str(k) for k in family}
    used: set[str] = set(PLACEHOLDER.findall(name))
    for k, v in body.items():
        if k != SWEEP_KEY and isinstance(v, str):
            for ref in PLACEHOLDER.findall(v):
                if ref not in known:
                    raise SpecError(f.value(body, k), f"'{k}' of check '{name}' names {{{ref}}}, which its sweep does "
                                                      f"not define (it has: {', '.join(sorted(known))})")
                used.add(ref)
    for ref in PLACEHOLDER.findall(name):
        if ref not in known:
            raise SpecError(loc, f"check name '{name}' names {{{ref}}}, which its sweep does not define")
    for var, items in variables:
        if var in groups:
            for _, group, _ in items:
                for k in group:
                    if k == SWEEP_KEY or not isinstance(k, str) or not _VARIABLE.fullmatch(k):
                        raise SpecError(f.key(group, k), f"sweep variable '{var}': a group's key is a check key or a "
                                                         "variable name")
                    if k not in check_keys and not _scalar(group[k]):
                        raise SpecError(f.value(group, k), f"sweep variable '{var}': {k!r} is not a check key, so it "
                                                           "is a variable, whose value must be a number or a string")
                    for ref in PLACEHOLDER.findall(group[k]) if isinstance(group[k], str) else []:
                        if ref not in known:
                            raise SpecError(f.value(group, k), f"sweep variable '{var}' names {{{ref}}}, which the "
                                                               "sweep does not define")
                        used.add(ref)
        elif var not in used and var not in check_keys:
            raise SpecError(f.key(body[SWEEP_KEY], var), f"sweep variable '{var}' is neither a check key nor used "
                                                         "as {" + var + "} in the check")
    try:
        return _expand_all(f, name, body, loc, check_keys, valid_name, variables, groups, written, wanted)
    except ExpansionTooLong as e:
        raise SpecError(loc, f"check '{name}': {e}") from None


def _expand_all(f: Any, name: str, body: CommentedMap, loc: Loc, check_keys: tuple[str, ...],
                valid_name: Callable[[str, Loc], None], variables: list[tuple[str, list[Value]]], groups: set[str],
                written: set[str], wanted: Callable[[str], bool] | None = None
                ) -> list[tuple[str, CommentedMap | None, Loc]]:
    out: list[tuple[str, CommentedMap | None, Loc]] = []
    refs = _placeholders(name, body)
    for combo in itertools.product(*(items for _, items in variables)):
        chosen = {var: value for (var, _), value in zip(variables, combo)}
        binding = dict(chosen)
        for var in groups:     # a group's own variables: placeholders like the sweep's (and may rename the group)
            group = chosen[var][1]
            binding.update({str(k): (str(v), v, f.value(group, k)) for k, v in group.items() if k not in check_keys})
        keys: dict[str, tuple[Any, Loc]] = {}          # the check keys the sweep sets, with where they are written
        for var, (_, value, at) in chosen.items():
            if var in groups:
                keys.update({str(k): (_substitute(v, binding) if isinstance(v, str) else v, f.value(value, k))
                             for k, v in value.items() if k in check_keys})
            elif var in check_keys:
                keys[var] = (value, at)
        # a check key the sweep sets may be named in strings: a number or string as itself, a list of them as
        # YAML writes it ({atom_layout} -> [2, 1, 1])
        binding.update({k: (_shown(v), v, at) for k, (v, at) in keys.items()
                        if (_scalar(v) or _scalar_list(v)) and k not in binding})
        own = {str(k): _substitute(v, binding) for k, v in body.items()     # the template's keys, as set here
               if k in written and isinstance(v, str)}
        binding.update({k: (v, v, loc) for k, v in own.items() if k not in binding})
        _all_set(name, refs, variables, groups, chosen, set(binding) | set(keys))
        if wanted is not None:
            expanded = _name(name, variables, binding)
            if not wanted(expanded):
                valid_name(expanded, loc)
                out.append((expanded, None, loc))
                continue
        m = rewritten(body, SWEEP_KEY, functools.partial(_substitute, binding=binding))
        for k, (v, at) in keys.items():
            m[k] = v
            m.lc.add_kv_line_col(k, [at.line - 1, at.column - 1] * 2)
        expanded = _name(name, variables, binding)
        valid_name(expanded, loc)
        out.append((expanded, m, loc))
    return out
