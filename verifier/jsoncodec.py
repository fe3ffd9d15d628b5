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


_PLAIN = frozenset((bool, int, float, str))
_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}    # per class: its dataclass fields, or None


Encoded = dict[int, tuple[Any, Any]]     # id(object) -> (the object, its JSON value)


def to_json(obj: Any, known: Encoded | None = None) -> Any:
    """The JSON value of `obj`; a dataclass object found in `known` (encoded before) is not encoded again."""
    cls = type(obj)
    if obj is None or cls in _PLAIN:
        return obj
    if cls not in _FIELD_NAMES:
        _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(obj)) if dataclasses.is_dataclass(cls) else None
    names = _FIELD_NAMES[cls]
    if names is not None:
        if known is not None:
            hit = known.get(id(obj))
            if hit is not None and hit[0] is obj:
                return hit[1]
        out = {}
        for name in names:       # plain leaves (most of a report) are taken as they are, without a call
            v = getattr(obj, name)
            out[name] = v if v is None or type(v) in _PLAIN else to_json(v, known)
        return out
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [x if x is None or type(x) in _PLAIN else to_json(x, known) for x in obj]
    if isinstance(obj, dict):
        return {str(k): v if v is None or type(v) in _PLAIN else to_json(v, known) for k, v in obj.items()}
    if isinstance(obj, (bool, int, float, str)):
        return obj
    raise CodecError(f"cannot encode {type(obj).__name__}")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


Decoder = typing.Callable[[Any], Any]


def from_json(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from `data`, checking every field."""
    return _decoder(tp)(data)


@lru_cache(maxsize=None)
def _decoder(tp: Any) -> Decoder:
    """The function that rebuilds values of type `tp`, made once per type (a run record holds thousands)."""
    origin = typing.get_origin(tp)
    if tp is Any:
        return lambda data: data
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        optional = type(None) in args
        options = [_decoder(a) for a in args if a is not type(None)]

        def union(data: Any) -> Any:
            if data is None and optional:
                return None
            for option in options:
                try:
                    return option(data)
                except CodecError:
                    continue
            raise CodecError(f"{data!r} fits none of {tp}")
        return union
    if origin in (list, tuple):
        args = typing.get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            each = [_decoder(a) for a in args]

            def fixed(data: Any) -> Any:
                if not isinstance(data, list) or len(data) != len(each):
                    raise CodecError(f"expected {len(each)} items for {tp}")
                return tuple(d(x) for d, x in zip(each, data))
            return fixed
        item = _decoder(args[0] if args else Any)

        def sequence(data: Any) -> Any:
            if not isinstance(data, list):
                raise CodecError(f"expected a list for {tp}, not {type(data).__name__}")
            out = [item(x) for x in data]
            return tuple(out) if origin is tuple else out
        return sequence
    if origin is dict:
        _, value_type = typing.get_args(tp) or (str, Any)
        value = _decoder(value_type)

        def mapping(data: Any) -> Any:
            if not isinstance(data, dict):
                raise CodecError(f"expected an object for {tp}")
            return {str(k): value(v) for k, v in data.items()}
        return mapping
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        names = frozenset(f.name for f in dataclasses.fields(tp) if f.init)
        cls = tp
        fields: dict[str, Decoder] = {}

        def record(data: Any) -> Any:
            if not isinstance(data, dict):
                raise CodecError(f"expected an object for {cls.__name__}")
            if data.keys() != names:
                raise CodecError(f"{cls.__name__}: fields {sorted(set(data) ^ names)} differ")
            if not fields:          # resolved on first use: a dataclass may name itself in its fields
                hints = _hints(cls)
                fields.update({name: _decoder(hints[name]) for name in names})
            return cls(**{name: fields[name](data[name]) for name in names})
        return record
    if isinstance(tp, type) and issubclass(tp, Enum):
        enum = tp

        def member(data: Any) -> Any:
            try:
                return enum(data)
            except ValueError:
                raise CodecError(f"{data!r} is no {enum.__name__}") from None
        return member
    if tp is float:
        def real(data: Any) -> Any:
            if isinstance(data, (int, float)) and not isinstance(data, bool):
                return float(data)
            raise CodecError(f"{data!r} is not a float")
        return real
    if tp in (int, str, bool):
        def scalar(data: Any) -> Any:
            if type(data) is tp:
                return data
            raise CodecError(f"{data!r} is not a {tp.__name__}")
        return scalar
    if tp is type(None):
        def nothing(data: Any) -> Any:
            if data is None:
                return None
            raise CodecError(f"{data!r} is not None")
        return nothing

    def unknown(data: Any) -> Any:
        raise CodecError(f"{data!r} is not a {getattr(tp, '__name__', tp)}")
    return unknown
