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


# What a failed let adds: lets run before guards, so a let that assumes what a guard checks
# fails first (the generated C++ throws the same text: utils::let in op_support.h).
LET_RULE = "lets run before guards: each must hold for every input the tensor checks accept"


def let_failure(op: str, let: str, why: str) -> OpError:
    """A let (`let` is "<name> = <expression>") that could not be evaluated."""
    return OpError(f"WebGPU {op}: let {let} failed: {why} ({LET_RULE})")
