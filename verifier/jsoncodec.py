"""Plain data <-> JSON, driven by the dataclasses' own type hints: dataclasses, enums, lists, tuples, dicts with
string keys, optional and union fields, and int / float / str / bool.  Used by the result cache: what it reads
back is rebuilt field by field and type-checked, never unpickled."""
from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import lru_cache
from typing import Any, Union


class CodecError(ValueError):
    """Data that does not have the shape its type says."""


def to_json(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [to_json(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise CodecError(f"cannot encode {type(obj).__name__}")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from `data`, checking every field."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_json(arg, data)
            except CodecError:
                continue
        raise CodecError(f"{data!r} fits none of {tp}")
    if origin in (list, tuple):
        if not isinstance(data, list):
            raise CodecError(f"expected a list for {tp}, not {type(data).__name__}")
        args = typing.get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(data):
                raise CodecError(f"expected {len(args)} items for {tp}")
            return tuple(from_json(a, x) for a, x in zip(args, data))
        item = args[0] if args else Any
        out = [from_json(item, x) for x in data]
        return tuple(out) if origin is tuple else out
    if origin is dict:
        if not isinstance(data, dict):
            raise CodecError(f"expected an object for {tp}")
        _, value = typing.get_args(tp) or (str, Any)
        return {str(k): from_json(value, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise CodecError(f"expected an object for {tp.__name__}")
        hints = _hints(tp)
        fields = {f.name for f in dataclasses.fields(tp) if f.init}
        if set(data) != fields:
            raise CodecError(f"{tp.__name__}: fields {sorted(set(data) ^ fields)} differ")
        return tp(**{name: from_json(hints[name], data[name]) for name in fields})
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(data)
        except ValueError:
            raise CodecError(f"{data!r} is no {tp.__name__}") from None
    if tp is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        return float(data)
    if tp in (int, str, bool) and type(data) is tp:
        return data
    if tp is type(None) and data is None:
        return None
    raise CodecError(f"{data!r} is not a {getattr(tp, '__name__', tp)}")
