"""The validation framework of the spec model: frozen dataclasses whose construction
errors are SpecErrors naming the class, the field, what is wrong and what to write.

`spec_class` wraps a class: a missing or unknown field, too many positional values or a
field of the wrong type (checked against its type hint) is reported before the class's
own `__post_init__` checks run, so those never trip over a wrong type.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import keyword
import re
import typing
from dataclasses import dataclass, fields
from typing import Any, Union

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

class SpecError(ValueError):
    """An invalid spec. The message names the field, what is wrong and what to write."""


def _label(obj_or_cls: Any, name: Any = None) -> str:
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    name = getattr(obj_or_cls, "name", None) if name is None else name
    return f"{cls.__name__} {name!r}" if isinstance(name, str) and name else cls.__name__


_EXAMPLES = {str: "'...'", bool: "True", int: "1", float: "1.0"}


def _plural(text: str) -> str:
    return {"a string": "strings", "an int": "ints", "a number": "numbers",
            "True or False": "bools"}.get(text, text + " values" if text.endswith(")") else text)


def _describe(hint: Any) -> tuple[str, str]:
    """What a field of type `hint` must be, in words, and an example to write."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (str, bool, int, float):
        return {str: "a string", bool: "True or False", int: "an int",
                float: "a number"}[hint], _EXAMPLES[hint]
    if origin is Union:
        parts = [_describe(a) for a in args if a is not type(None)]
        text = " or ".join(p[0] for p in parts) + (" or None" if type(None) in args else "")
        return text, parts[0][1]
    if origin is tuple or hint is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner, ex = _describe(args[0])
            return f"a tuple of {_plural(inner)}", f"({ex},)"
        if args:
            parts = [_describe(a) for a in args]
            kinds = {p[0] for p in parts}
            text = (f"{len(args)} {_plural(parts[0][0])}" if len(kinds) == 1
                    else ", ".join(p[0] for p in parts))
            return f"a tuple of {text}", f"({', '.join(p[1] for p in parts)})"
        return "a tuple", "(...)"
    if origin is collections.abc.Sequence:
        inner, ex = _describe(args[0])
        return f"a list of {_plural(inner)}", f"[{ex}]"
    if origin is collections.abc.Mapping:
        key, kex = _describe(args[0])
        val, vex = _describe(args[1])
        return f"a dict from {_plural(key)} to {_plural(val)}", f"{{{kex}: {vex}}}"
    if hint is Any:
        return "anything", "..."
    if isinstance(hint, type):
        return f"{hint.__name__}(...)", f"{hint.__name__}(...)"
    return str(hint), "..."


def _conforms(value: Any, hint: Any) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is Union:
        return any(_conforms(value, a) for a in args)
    if origin is tuple or hint is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return not args or (len(value) == len(args) and all(map(_conforms, value, args)))
    if origin is collections.abc.Sequence:
        return (isinstance(value, (list, tuple))
                and all(_conforms(v, args[0]) for v in value))
    if origin is collections.abc.Mapping:
        return isinstance(value, collections.abc.Mapping) and all(
            _conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items())
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _check_fields(obj: Any) -> None:
    """Every field holds a value of its declared type (checked before the class's own
    checks, so those never trip over a wrong type)."""
    hints = _hints(type(obj))
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name == "folder" or _conforms(value, hints[f.name]):
            continue
        text, example = _describe(hints[f.name])
        raise SpecError(f"{_label(obj)} field {f.name!r} must be {text} (got {value!r}); "
                        f"write e.g. {f.name}={example}")


def spec_class(cls: type) -> type:
    """A frozen spec dataclass whose construction errors are SpecErrors: a missing or
    unknown field, too many positional values, or a field of the wrong type."""
    post = getattr(cls, "__post_init__", None)
    cls.__post_init__ = lambda self: None  # so the dataclass __init__ calls it
    cls = dataclass(frozen=True)(cls)
    init = cls.__init__
    signature = inspect.signature(init)
    names = [f.name for f in fields(cls) if f.init and f.name != "folder"]

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError as e:
            label = _label(cls, args[0] if args else kwargs.get("name"))
            reason = str(e)
            missing = re.search(r"missing a required argument: '(\w+)'", reason)
            unknown = re.search(r"unexpected keyword argument '(\w+)'", reason)
            if missing:
                text, example = _describe(_hints(cls)[missing.group(1)])
                fix = (f"is missing the required field {missing.group(1)!r} ({text}); write "
                       f"e.g. {missing.group(1)}={example}")
            elif unknown:
                fix = (f"got an unexpected keyword argument {unknown.group(1)!r}; its fields "
                       f"are {', '.join(names)}: remove it or use one of those")
            elif "too many positional" in reason:
                fix = (f"takes at most {len(names)} positional values ({', '.join(names)}); "
                       f"pass the others by name")
            else:
                fix = f"cannot be built from these values ({reason}); its fields are {', '.join(names)}"
            raise SpecError(f"{label} {fix}") from None
        init(self, *args, **kwargs)

    def __post_init__(self):
        _check_fields(self)
        if post is not None:
            post(self)

    cls.__init__ = __init__
    cls.__post_init__ = __post_init__
    return cls


def ident(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _IDENT.match(value) or keyword.iskeyword(value):
        raise SpecError(f"{what} must be an identifier (got {value!r}); write e.g. 'input'")
    return value


def expr_text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SpecError(f"{what} must be an expression string (got {value!r}); write e.g. "
                        f"'input.dims[0]'")
    return value

