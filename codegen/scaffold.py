"""`opgen new`: a new op's spec, shader and case, pre-filled from the torch schema."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser("new", help="scaffold a new op spec from its torch schema")
    p.add_argument("op")
    p.add_argument("--target", required=True, help="ns.op.overload, e.g. aten.tanh.default")


def cmd_new(args: argparse.Namespace) -> int:
    raise NotImplementedError
