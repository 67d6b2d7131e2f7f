"""Load `(model, example_inputs)` from a `module:factory` or `file.py:factory` argument,
as `opgen export`, `opgen coverage` and `opgen run --reference` take it."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

from codegen.et.errors import InputError


def _required_params(f) -> list[str]:
    import inspect

    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):  # no signature to read: assume none is required
        return []
    return [p.name for p in params if p.default is p.empty
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _factories(module) -> list[str]:
    """The module's public functions callable without arguments (its factories)."""
    import inspect

    return sorted(name for name, f in vars(module).items()
                  if not name.startswith("_") and inspect.isfunction(f)
                  and f.__module__ == module.__name__ and not _required_params(f))


def _import_factory_module(module_name: str, spec: str):
    if module_name.endswith(".py"):
        path = Path(module_name).resolve()
        if not path.is_file():
            raise InputError(f"{module_name}: no such Python file (in {spec!r})")
        spec_obj = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec_obj)
        sys.modules[path.stem] = module
        spec_obj.loader.exec_module(module)
        return module
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        found = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):  # a parent package is missing, or the name is empty
        found = None
    if found is None:
        raise InputError(f"no Python module named {module_name!r} (in {spec!r}; expected "
                         f"<module or file.py>:<factory>)")
    return importlib.import_module(module_name)


def load_factory(spec: str) -> tuple[Any, tuple]:
    """`pkg.module:factory` (or `path/to/file.py:factory`) -> factory(). InputError
    when `spec` names no factory or the factory returns something else than
    `(model, example_inputs)`; errors raised by the module or the factory itself
    propagate with their traceback (they are the factory's)."""
    import torch

    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InputError(f"expected <python module or file.py>:<factory>, got {spec!r}")
    module = _import_factory_module(module_name, spec)
    factory = getattr(module, attr, None)
    known = f"(factories: {', '.join(_factories(module)) or 'none'})"
    if factory is None:
        raise InputError(f"{module_name} has no factory {attr!r} {known}")
    if not callable(factory):
        raise InputError(f"{spec} is a {type(factory).__name__}, not a factory {known}")
    required = _required_params(factory)
    if required:
        raise InputError(f"{spec} takes arguments ({', '.join(required)}); a factory takes "
                         f"none {known}")
    result = factory()
    if not (isinstance(result, (tuple, list)) and len(result) == 2
            and isinstance(result[0], torch.nn.Module) and isinstance(result[1], (tuple, list))):
        raise InputError(f"{spec} returned {type(result).__name__}; a factory returns "
                         f"(model, example_inputs): an nn.Module and a tuple of inputs")
    model, inputs = result
    return model, tuple(inputs)