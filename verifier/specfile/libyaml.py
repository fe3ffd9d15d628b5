"""Composing a spec's YAML with libyaml (ruamel.yaml.clib's C parser) where it gives exactly the node tree that
ruamel's pure-Python parser gives, faster (benchmarks/yaml_load.py: the catalog's specs load about three times
faster).

ruamel's pure parser stays the reference (verifier/specfile/loader.py): libyaml's tree is used only when

- the text is in the subset where the two parsers are known to agree: at most LIBYAML_MAX_CHARS characters in
  lines of at most LIBYAML_MAX_LINE (libyaml's composer recurses in C, once per nested collection, and a block
  collection inside another starts further right, so this bounds the depth where the stack cannot overflow;
  `- - - ... x` on one long line nests as deep as the line is long); no directive (YAML 1.1 and 1.2 differ
  there), no tag or anchor (ruamel keeps an anchor's name on the node and the objects built from it; libyaml's
  nodes do not), no tab, carriage return, byte-order mark or Unicode line separator (which the two count
  differently in lines and columns);
- libyaml reads the whole document without an error (an error, and its message, are always the pure parser's);
- the tree has no empty value (`key:` with nothing after it: the two place its position differently), no
  shared node (an alias) and at most `max_events` parser events (the pure parser's bound reports the excess);
- ruamel's parser reads every block scalar (| or >) as libyaml did: it is stricter with them, so each is read
  again by it, alone with its header's line.

Otherwise `compose` answers NOT_COMPOSED and the caller parses with ruamel's parser.  Where libyaml is used, a
plain scalar's style is normalised to ruamel's (None).  tests/test_libyaml.py compares the two trees, node by
node with every position, on every spec and on mutated and generated documents.
"""
from __future__ import annotations

import contextlib
import enum
import re
from collections.abc import Callable, Iterator
from typing import Any, Final

from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

LIBYAML_MAX_CHARS = 256 * 1024   # bounds the nodes libyaml builds before their events are counted
LIBYAML_MAX_LINE = 512           # characters: bounds the nesting (two levels a column at most, [ and { aside)
MAX_BLOCK_SCALARS = 256          # each is read again by ruamel's parser; more, and the whole text is (the catalog: 34)
_OUTSIDE_SUBSET = re.compile("[&!\t\r\ufeff\x85\u2028\u2029]|^%", re.MULTILINE)


class NotComposed(enum.Enum):
    NOT_COMPOSED = "libyaml did not compose this text: parse it with ruamel's parser"


NOT_COMPOSED: Final = NotComposed.NOT_COMPOSED


def _parser_class() -> type | None:
    """A libyaml parser that resolves tags with ruamel's YAML 1.2 resolver, or None without ruamel.yaml.clib."""
    try:
        from _ruamel_yaml import CParser     # ruamel.yaml.clib's libyaml binding, as ruamel.yaml.cyaml takes it
    except ImportError:
        return None
    from ruamel.yaml.resolver import VersionedResolver

    class _Composer(CParser, VersionedResolver):  # type: ignore[misc]
        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            VersionedResolver.__init__(self, loader=self)
            self._resolvers: Any = None

        @property
        def versioned_resolver(self) -> Any:
            # ruamel looks the YAML version up again for every scalar; a text of the subset has no directive, so
            # its version, and the resolvers of it, are one for the whole text
            if self._resolvers is None:
                self._resolvers = super().versioned_resolver
            return self._resolvers
    return _Composer


_PARSER: type | None = None     # once _LOOKED_UP: the libyaml parser class, None without ruamel.yaml.clib
_LOOKED_UP = False


def available() -> bool:
    """Whether ruamel.yaml.clib (libyaml) is installed."""
    global _PARSER, _LOOKED_UP
    if not _LOOKED_UP:
        _PARSER, _LOOKED_UP = _parser_class(), True
    return _PARSER is not None


@contextlib.contextmanager
def turned_off() -> Iterator[None]:
    """Within the block, libyaml is taken as not installed: ruamel's parser reads every text (tests, benchmarks)."""
    global _PARSER, _LOOKED_UP
    saved = _PARSER, _LOOKED_UP
    _PARSER, _LOOKED_UP = None, True
    try:
        yield
    finally:
        _PARSER, _LOOKED_UP = saved


def in_subset(text: str) -> bool:
    """Whether `text` is in the subset of YAML where libyaml's tree is ruamel's (see the module's docstring)."""
    return (len(text) <= LIBYAML_MAX_CHARS and _OUTSIDE_SUBSET.search(text) is None
            and max(map(len, text.split("\n"))) <= LIBYAML_MAX_LINE)


def compose(text: str, max_events: int, reference: Callable[[str], Node | None]) -> Node | None | NotComposed:
    """The document's node tree as ruamel's pure parser would compose it (None: an empty document), or
    NOT_COMPOSED when libyaml is not installed or not certain to agree on this text.  `reference` is ruamel's
    pure composer: each block scalar (| or >) is read by it too (see _block_scalars_agree)."""
    if not in_subset(text) or not available():
        return NOT_COMPOSED
    assert _PARSER is not None
    try:
        root: Node | None = _PARSER(text).get_single_node()
    except (YAMLError, ValueError, RecursionError):   # the pure parser reports it, in its own words
        return NOT_COMPOSED
    if root is None:
        return None
    blocks: list[ScalarNode] = []
    if not _normalise(root, max_events, blocks) or not _block_scalars_agree(text, blocks, reference):
        return NOT_COMPOSED
    return root


def _block_scalars_agree(text: str, blocks: list[ScalarNode], reference: Callable[[str], Node | None]) -> bool:
    """Whether ruamel's parser reads each block scalar as libyaml did.  ruamel is stricter with them (it refuses
    `>#`, and a blank first line of spaces followed by a line that starts further right, where libyaml reads on), so
    each is read again by `reference` from the start of its header's line to its end: the header's line holds
    everything the scalar's reading depends on (the indentation of the collection it is in, its indicators)
    when the key or `-` it belongs to is on that line too; a block scalar whose header starts its own line is
    not composed by libyaml."""
    if len(blocks) > MAX_BLOCK_SCALARS:
        return False
    for node in blocks:
        start, end = node.start_mark, node.end_mark
        line_start = start.index - start.column
        if not text[line_start:start.index].strip():
            return False
        # ruamel refuses a block whose first line is blank but for spaces when a later line (the block's first
        # text, or the line after the block) starts further right: the line after the block is not read again
        header_end = text.find("\n", start.index)
        if header_end >= 0:
            line_end = text.find("\n", header_end + 1)
            first = text[header_end + 1:line_end if line_end >= 0 else len(text)]
            if first and not first.strip(" "):
                return False
        try:
            again = reference(text[line_start:end.index])
        except (YAMLError, ValueError, RecursionError):
            return False
        if _scalar_at(again, start.column) != (str(node.tag), node.value, node.style):
            return False
    return True


def _scalar_at(root: Node | None, column: int) -> tuple[str, str, str | None] | None:
    """Tag, value and style of the first scalar that starts on the first line at `column`, if any."""
    stack: list[Any] = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, ScalarNode):
            if node.start_mark.line == 0 and node.start_mark.column == column:
                return str(node.tag), node.value, node.style
        elif isinstance(node, SequenceNode):
            stack += reversed(node.value)
        elif isinstance(node, MappingNode):
            stack += [n for pair in reversed(node.value) for n in reversed(pair)]
    return None


def _normalise(root: Node, max_events: int, blocks: list[ScalarNode]) -> bool:
    """Give plain scalars ruamel's style and collect the block scalars in `blocks`; False when the tree is outside
    the subset (an empty value, a shared node, more than `max_events` events: the stream's and document's four,
    one per scalar, two per collection)."""
    seen: set[int] = set()
    events = 4
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return False
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            events += 1
            if node.style == "":
                if node.value == "":
                    return False
                node.style = None
            elif node.style in ("|", ">"):
                blocks.append(node)
        elif isinstance(node, SequenceNode):
            events += 2
            stack += node.value
        elif isinstance(node, MappingNode):
            events += 2
            for key, value in node.value:
                stack += (key, value)
        else:
            return False
        if events > max_events:
            return False
    return True
