"""libyaml composes a spec only where its node tree is ruamel's pure parser's (verifier/specfile/libyaml.py).

Trees are compared node by node: kind, tag, value, style, flow style and start position (line, column, index;
the only position anything reads). On every committed YAML file, on random mutations of the specs (inserted YAML
punctuation, deletions, duplicated slices) and on generated documents: wherever libyaml composes, ruamel's
parser must accept the text too and give the same tree. Outside the subset (anchors, tags, tabs, directives,
empty values, too many events) libyaml must step aside, and the loader then reads the file exactly as before.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from verifier.specfile import libyaml, load_specs
from verifier.specfile.libyaml import NOT_COMPOSED
from verifier.specfile.loader import MAX_YAML_EVENTS, _compose_with_ruamel, _yaml

pytest.importorskip("_ruamel_yaml", reason="ruamel.yaml.clib (libyaml) is not installed")

ROOT = Path(__file__).resolve().parent.parent
YAML_FILES = sorted(p for d in ("specs", "tests/specs", "tests/data", "examples") for p in (ROOT / d).rglob("*.y*ml"))
SPEC_TEXTS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "specs").rglob("*.yaml"))]


def compose(text: str, max_events: int = MAX_YAML_EVENTS) -> Any:
    return libyaml.compose(text, max_events, _compose_with_ruamel)


def tree(node: Node | None) -> Any:
    """Everything the constructor and the loader read of a node tree (end positions are read by neither)."""
    if node is None:
        return None
    mark = (node.start_mark.line, node.start_mark.column, node.start_mark.index)
    if isinstance(node, ScalarNode):
        return ("scalar", str(node.tag), node.value, node.style, mark)
    if isinstance(node, SequenceNode):
        return ("seq", str(node.tag), node.flow_style, mark, [tree(n) for n in node.value])
    assert isinstance(node, MappingNode)
    return ("map", str(node.tag), node.flow_style, mark, [(tree(k), tree(v)) for k, v in node.value])


def agree(text: str) -> bool:
    """True when libyaml composed `text` (then ruamel's parser must accept it and give the same tree)."""
    fast = compose(text)
    if fast is NOT_COMPOSED:
        return False
    assert tree(fast) == tree(_yaml().compose(text)), text[:500]   # type: ignore[arg-type]
    return True


def test_every_committed_yaml_file_composes_alike() -> None:
    composed = {p.relative_to(ROOT).as_posix() for p in YAML_FILES if agree(p.read_text(encoding="utf-8"))}
    assert "specs/atoms/sm100_umma.yaml" in composed and "specs/sm80_f16.yaml" in composed
    assert len(composed) >= 40, len(composed)


def test_mutated_specs_compose_alike() -> None:
    """Random edits of spec excerpts: where libyaml composes, the trees agree (and ruamel never refuses)."""
    pieces = list(" \n:-[]{},\"'#|>?*@`\\a1.~é×=\U0001F600") + [
        "  ", "\n  ", ": ", "- ", "0x1F", "1e3", "true", "null", "~", '"a\\tb"', "'it''s'", "|\n  x\n",
        ">-\n  y\n", "? ", "...", "---", "\\u00e9", '"\\/"', "1_000", "0o17", "017", ".inf", "yes", "On", "<<: ",
        '"\\U0001F600"', "x\U0001F600: 1", ">#", "|2\n", ">+\n"]
    rng = random.Random(20261201)
    composed = 0
    for _ in range(3000):
        lines = rng.choice(SPEC_TEXTS).split("\n")
        start = rng.randrange(len(lines))
        text = "\n".join(lines[start:start + rng.randrange(1, 30)])
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(text) + 1)
            edit = rng.random()
            if edit < 0.4:
                text = text[:i] + rng.choice(pieces) + text[i:]
            elif edit < 0.7:
                text = text[:i] + text[i + rng.randrange(1, 4):]
            else:
                j = rng.randrange(len(text) + 1)
                text = text[:i] + text[j:j + rng.randrange(1, 20)] + text[i:]
        composed += agree(text)
    assert composed > 600, composed   # the comparison was not vacuous


def test_indentation_around_scalars_composes_alike() -> None:
    """Block, plain and quoted scalars over several lines with random indentation, headers and neighbours: where
    the two parsers are known to differ (ruamel refuses some blocks libyaml reads), libyaml must step aside."""
    words = ["x", "a b", "c: d", "# c", "- e", '"q"', "'s'", ">", "|", "1", "", "  ", "k:", "[1]", "{a: 1}", "\\",
             '"multi', "line'", "#", ":"]
    rng = random.Random(1201)
    composed = 0
    for _ in range(4000):
        indent = " " * rng.choice([0, 2, 4])
        lines = [indent + rng.choice(["k: ", "- ", 'k: "', "k: '", "- k: "])
                 + rng.choice([">", "|", ">-", "|+", "|2", ">1-", "", "x", "plain start", ">#", "| #c"])]
        lines += [" " * rng.randrange(8) + rng.choice(words) + rng.choice(["", " ", " x", '"', "'"])
                  for _ in range(rng.randrange(1, 6))]
        if rng.random() < 0.5:
            lines.append(indent + rng.choice(["m: 1", "- 2", "n: [1]", ""]))
        composed += agree("\n".join(lines) + rng.choice(["", "\n", "\n\n"]))
    assert composed > 400, composed


_WORDS = st.sampled_from(["a", "b1", "x y", "1", "-2", "0x10", "1.5", "true", "null", "~", "(4,8):(1,4)", "é",
                          "a:b", "a #b", "'q'", '"d"', "", "- x", "[1]", "{k: v}", "|", ">", "yes", "on", ".nan"])
_VALUES = st.recursive(_WORDS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(_WORDS, inner, max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=_VALUES, flow=st.sampled_from([None, True, False]), quotes=st.booleans())
def test_generated_documents_compose_alike(document: Any, flow: bool | None, quotes: bool) -> None:
    import io

    from ruamel.yaml import YAML
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    yaml.default_style = '"' if quotes else None
    out = io.StringIO()
    yaml.dump(document, out)
    agree(out.getvalue())


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n",               # an anchor and an alias
    "a: !!str 1\n",                   # a tag
    "a:\n\tb: 1\n",                   # a tab
    "%YAML 1.2\n---\na: 1\n",         # a directive
    "a: 1\r\nb: 2\r\n",               # carriage returns
    "\ufeffa: 1\n",                   # a byte-order mark
    "a: x\u2028y\n",                  # a Unicode line separator
    "a:\nb: 1\n",                     # an empty value (its position differs)
    "- \n- b\n",                      # an empty list item
    "a: [1, 2\n",                     # an error: always ruamel's message
    "a: 1\n" + "#" * (libyaml.LIBYAML_MAX_CHARS + 1),
    "- " * (libyaml.LIBYAML_MAX_LINE // 2) + "x\n",   # nested past the depth libyaml's C stack is trusted with
    "a: >#-\n  x\n",                  # found by the mutation test: libyaml reads the header, ruamel refuses it
    "  a: >-\n \n   x\n    y\n",     # ...and (after a blank line) a folded scalar's line more indented than its first
    "a:\n  >-\n  x\n",                # a block scalar's header on a line of its own
    "    k: |\n \n    m: 1\n",         # an empty block whose blank line has a space: ruamel refuses the next line
    "".join(f"k{i}: |\n  x\n" for i in range(libyaml.MAX_BLOCK_SCALARS + 1)),   # too many to read each again
])
def test_libyaml_steps_aside_outside_the_subset(text: str) -> None:
    assert compose(text) is NOT_COMPOSED


def test_the_event_bound_is_the_pure_parsers_count() -> None:
    text = "version: 1\nname: n\nx: [1, 2, {a: [3, 4]}]\ny: {b: c}\n"
    events = sum(1 for _ in _yaml().parse(text))
    assert compose(text, events) is not NOT_COMPOSED
    assert compose(text, events - 1) is NOT_COMPOSED


def test_plain_scalars_get_ruamels_style() -> None:
    root = compose("a: b\nc: 'd'\ne: \"f\"\n")
    assert isinstance(root, MappingNode)
    assert [v.style for _, v in root.value] == [None, "'", '"']


def test_specs_load_the_same_without_libyaml() -> None:
    paths = [str(ROOT / "specs" / "sm80_f16.yaml"), str(ROOT / "specs" / "mistakes.yaml")]
    fast = load_specs(paths)
    with libyaml.turned_off():
        assert not libyaml.available()
        assert compose("a: 1\n") is NOT_COMPOSED
        assert load_specs(paths) == fast
    assert libyaml.available()


def _outcome(path: Path) -> str:
    from verifier.specfile import SpecError
    try:
        return repr(load_specs([str(path)]))
    except SpecError as e:
        return f"refused: {e}"


@pytest.mark.parametrize("body", [
    "x:\n" + "- " * 60_000 + "x\n",                                          # compact nesting on one line
    "x:\n" + "".join("  " * i + "-\n" for i in range(250)) + "  " * 250 + "x\n",   # a step right per line
    "x:\n" + "".join("  " * i + f"k{i}:\n" for i in range(250)) + "  " * 250 + "v\n",
    "x: [" + ", ".join("[1, {a: b}]" for _ in range(2000)) + "]\n",
])
def test_deep_and_wide_documents_read_alike_with_and_without_libyaml(tmp_path: Path, body: str) -> None:
    """Never a crash (libyaml's composer recurses in C), and the same answer (a spec or the same refusal)."""
    path = tmp_path / "deep.yaml"
    path.write_text("version: 1\nname: n\n" + body, encoding="utf-8")
    with_libyaml = _outcome(path)
    with libyaml.turned_off():
        assert _outcome(path) == with_libyaml
