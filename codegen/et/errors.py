"""The errors of the ExecuTorch commands: a model the delegate cannot take
(`ExportError`) and an input that cannot be used as given (`InputError`); `opgen`
reports both as user errors."""

from __future__ import annotations


class ExportError(RuntimeError):
    """The model cannot be exported fully onto the WebGPU delegate."""


class InputError(ValueError):
    """A command's input that cannot be used as given: a `module:factory` that names no
    factory, a .pte that is not there or not a program, an output path that cannot be
    written. The message names the argument, what was expected and what was given."""
