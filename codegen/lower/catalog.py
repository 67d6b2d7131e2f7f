"""The catalog of every op spec, loaded once per process, and each op's lowering,
computed once: what executors, export and the CLI look ops up in."""

from __future__ import annotations

import functools

from codegen.language.loader import Catalog, load
from codegen.lower.steps import Lowering, lower


@functools.lru_cache(maxsize=1)
def catalog() -> Catalog:
    return load()


@functools.lru_cache(maxsize=None)
def lowering(op_name: str) -> Lowering:
    return lower(catalog().op(op_name))
