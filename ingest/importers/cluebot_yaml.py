"""The YAML of a cluebot sheet (ingest/importers/cluebot.py): the safe loaders that refuse what
YAML would read silently (a number too long to read, a key given twice, an alias), and the lines
of the sheet's parts. A module of its own so that PyYAML loads only when a sheet is read, not with
the list of formats (`clue-stats --help`, every ingest)."""

from __future__ import annotations

from typing import Any

import yaml

from clue_stats.engine.markers import T_, Said
from clue_stats.ingest import strict_json

YAMLError = yaml.YAMLError

_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same result, faster


class Refused(yaml.constructor.ConstructorError):
    """A value the sheet may not hold (a number too long to read, a key given twice)."""

    def __init__(self, code: str, message: str | Said, node: yaml.Node):
        super().__init__(None, None, str(message), node.start_mark)
        self.code, self.said = code, message


class DetectLoader(_BASE_LOADER):  # type: ignore[valid-type,misc]
    """The safe loader for recognising a sheet: a number too long to read is 0 here (read says so)."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        if sum(c.isdigit() for c in str(node.value)) > strict_json.MAX_DIGITS:
            return self.too_long(node)
        value: int = super().construct_yaml_int(node)
        return value

    def too_long(self, node: yaml.ScalarNode) -> int:
        return 0


class Loader(DetectLoader):
    """The safe loader, refusing what YAML would read silently or with a bare ValueError."""

    def too_long(self, node: yaml.ScalarNode) -> int:
        digits = sum(c.isdigit() for c in str(node.value))
        raise Refused(
            "bad_value",
            T_(
                "a number of {digits} digits (at most {max_digits} are read)",
                digits=format(digits, ","),
                max_digits=format(strict_json.MAX_DIGITS, ","),
            ),
            node,
        )

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else id(key_node)
            if key in seen:
                raise Refused(
                    "duplicate_key", T_("the key {key} appears twice in one mapping", key=repr(key)), key_node
                )
            seen.add(key)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep)
        return mapping


DetectLoader.add_constructor("tag:yaml.org,2002:int", DetectLoader.construct_yaml_int)


def parse(text: str) -> tuple[Any, yaml.Node | None]:
    """The sheet's data and its node tree (which keeps the line of every event), from one parse."""
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            refuse_aliases(node)
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return data, node


def refuse_aliases(root: yaml.Node) -> None:
    """A sheet is a tree: a node reached twice is a YAML alias (``*name``), which a cluebot sheet
    never writes and which lets a few lines stand for millions of events ("billion laughs")."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise Refused("bad_import", T_("the sheet repeats a part with a YAML alias (*name); write it out"), node)
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def detected(text: str) -> Any:
    """The sheet's data as the detecting loader reads it; None when it is not YAML (or too deep)."""
    try:
        return yaml.load(text, Loader=DetectLoader)
    except (yaml.YAMLError, ValueError, RecursionError):
        return None


def line_of(root: yaml.Node | None, key: str) -> int | None:
    if isinstance(root, yaml.MappingNode):
        for k, _v in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k.start_mark.line + 1
    return None


def event_lines(root: yaml.Node | None, count: int) -> list[int | None]:
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "events" and isinstance(v, yaml.SequenceNode):
                return [item.start_mark.line + 1 for item in v.value]
    return [None] * count
