"""The error a failed runtime check raises in Python, with the native runtime's text.

Every executor reports a rejected call as `OpError("WebGPU <op>: <argument> <what>
(got <x>, expected <y>)")`, character for character what the generated C++ throws
(`utils::fail`), so negative cases compare messages across executors.
"""

from __future__ import annotations


class OpError(RuntimeError):
    """A failed check: the same text as the native runtime's webgpu_delegate::Error."""


def fail(op: str, argument: str, what: str, got: str, expected: str) -> OpError:
    return OpError(f"WebGPU {op}: {argument} {what} (got {got}, expected {expected})")
