"""`opgen`: generate, check, list and scaffold WebGPU op handlers from op specs.

A user error (a bad argument, a spec that does not load, a model the delegate cannot
take, a missing build product) is one of `USER_ERRORS`: every command reports it as
`opgen <command>: error: <message>` and exits 2. Any other exception is a bug in the
toolkit and keeps its traceback. A closed stdout (`opgen list | head`) ends the
command quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from codegen.bench import bench
from codegen.bench.checks import BenchError
from codegen.cli import scaffold
from codegen.emit.generate import drift, generate, outputs
from codegen.emit.render import RenderError
from codegen.emit.writer import WriteError
from codegen.et import llm, pte
from codegen.et.errors import ExportError, InputError
from codegen.executors import browser, harness, native
from codegen.executors.browser_device import BrowserError
from codegen.lower.catalog import catalog
from codegen.executors.cases import all_case_runs, execute
from codegen.executors.shader_check import browser_shader_errors, catalog_modules, shader_errors
from codegen.executors.wgpu_device import adapter_line
from codegen.language.loader import SpecFileError, load
from codegen.paths import StaleBuildError
from codegen.web import site as web_site


class UsageError(ValueError):
    """A command-line argument this module checks itself (e.g. `validate --op`)."""


USER_ERRORS = (SpecFileError, RenderError, WriteError, BenchError, BrowserError, ExportError,
               InputError, pte.PteError, UsageError, StaleBuildError)
# exit status of a command whose stdout was closed early (128 + SIGPIPE, as a shell reports
# a program that SIGPIPE ended)
BROKEN_PIPE = 141


def cmd_generate(args: argparse.Namespace) -> int:
    rendered, changed = generate()
    for path in changed:
        print(f"wrote {path}")
    print(f"opgen: {len(rendered)} outputs, {len(changed)} changed")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    if args.op and not args.shaders:
        raise UsageError("--op picks the kernels --shaders compiles: add --shaders")
    specs = load() if args.shaders else None
    _known_ops(specs, args.op or [])  # a misspelled op fails before the drift check
    problems = drift(outputs())
    if problems:
        print("opgen check: generated files are out of date with the specs:", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        print("run `opgen generate` (python -m codegen generate) and commit the result",
              file=sys.stderr)
        return 1
    if args.shaders:
        mods = catalog_modules(specs)
        if args.op:  # those ops' kernels (a kernel several ops route to is one module)
            kernels = {k.name for name in args.op for k in specs.op(name).op.kernels()}
            mods = [m for m in mods if m.kernel.name in kernels]
        errors = shader_errors(mods) + browser_shader_errors(mods)
        if errors:
            print(f"opgen check: WGSL compile errors ({len(mods)} kernels compiled with naga "
                  f"and Tint):", file=sys.stderr)
            for e in errors:
                print(f"  {e}", file=sys.stderr)
            return 1
        print(f"opgen check: everything is up to date; {len(mods)} kernels compile with naga "
              f"and Tint")
        return 0
    print("opgen check: everything is up to date")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    catalog = load()
    for b in sorted(catalog.ops, key=lambda b: b.op.name):
        op = b.op
        print(f"{op.name}  ({', '.join(op.targets)})  resize={op.resize}  cases={len(op.cases)}")
        for d in b.dispatches:
            scope = f"  (dispatch when {d.spec.when})" if d.spec.when else ""
            if getattr(d.spec, "foreach", ""):
                scope += f"  (once per output of {d.spec.foreach})"
            if hasattr(d.spec, "routes"):
                for r in d.routes:
                    when = r.route.when or "otherwise"
                    print(f"  route {r.route.kernel.name:<24} when {when}{scope}")
            else:
                print(f"  copy {d.spec.src} -> {d.spec.dst}{scope}")
        for sc in op.scratch:
            print(f"  scratch {sc.name} {sc.dtype} {sc.shape}")
        for g in b.guards:
            print(f"  guard {g.guard.arg}: {g.guard.what}")
    # escape hatches (a hand-written C++ helper with a Python twin, DESIGN.md) would be
    # listed here; no spec uses one, and the line says so rather than ending bare
    print(f"{len(catalog.ops)} ops, {len(catalog.kernels)} kernels; escape hatches "
          f"(hand-written C++ helpers): none")
    return 0


def _known_ops(specs, names: list[str]) -> None:
    """A UsageError naming those of `names` (an --op list) that are not ops of `specs`."""
    if not names:
        return
    ops = {b.op.name for b in specs.ops}
    unknown = sorted(set(names) - ops)
    if unknown:
        raise UsageError(f"--op {', '.join(unknown)}: no such op (ops: {', '.join(sorted(ops))})")


def cmd_validate(args: argparse.Namespace) -> int:
    """Runs every case of every spec on each executor and prints one line per case."""
    _known_ops(catalog(), args.op or [])
    executors = {"harness": harness.EXECUTOR}
    if not args.harness_only:
        try:  # a missing or stale runner fails here, once, not in every case
            native.runner_path()
        except FileNotFoundError as e:
            raise UsageError(f"{e}; or run --harness-only") from None
        executors["native"] = native.EXECUTOR
    if args.browser:
        executors["browser"] = browser.EXECUTOR
    runs = [r for r in all_case_runs(catalog()) if not args.op or r.op.op.name in args.op]
    print(f"adapter: {adapter_line()}")
    failed = 0
    if args.browser:  # Tint first: a kernel it rejects is reported at its file:line
        tint = browser_shader_errors(catalog_modules(catalog()))
        for error in tint:
            print(f"  tint     {error}")
        print(f"tint: {len(tint)} errors" if tint else "tint: every kernel compiled")
        failed += len(tint)
    for name, executor in executors.items():
        t0 = time.perf_counter()
        for r in runs:
            try:
                routes = execute(r, executor)
                status = "ok" if not r.case.raises else "ok (rejected as expected)"
                print(f"  {name:8} {r.id:48} {status} {' '.join(routes)}")
            except Exception as e:  # report every case, then fail
                failed += 1
                print(f"  {name:8} {r.id:48} FAILED: {str(e).splitlines()[0][:200]}")
        print(f"{name}: {len(runs)} cases in {time.perf_counter() - t0:.1f} s")
    print(f"validate: {len(runs) * len(executors) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="opgen", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", help="write generated/ (handlers, kernel modules and headers, registry)")
    c = sub.add_parser("check", help="exit 1 if any generated file is missing, stale or orphaned")
    c.add_argument("--shaders", action="store_true",
                   help="also compile every kernel with naga (the wgpu adapter) and with Tint "
                        "(Chromium's WebGPU) and report errors at the .wgsl file's line:column")
    c.add_argument("--op", action="append",
                   help="with --shaders: compile only this op's kernels (repeatable)")
    sub.add_parser("list", help="ops, targets, kernels, routes, guards")
    v = sub.add_parser("validate", help="run every spec case on the harness and the native runner")
    v.add_argument("--harness-only", action="store_true", help="skip the native runner")
    v.add_argument("--browser", action="store_true",
                   help="also run every case in Chromium's WebGPU (Dawn + Tint)")
    v.add_argument("--op", action="append", help="only this op (repeatable)")
    scaffold.add_parser(sub)
    bench.add_parser(sub)
    pte.add_parsers(sub)
    llm.add_parser(sub)
    web_site.add_parser(sub)
    args, extra = parser.parse_known_args(argv)
    if extra:  # named by the command's own parser: "opgen <command>: error: ..."
        sub.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    handlers = {"generate": cmd_generate, "check": cmd_check, "list": cmd_list,
                "new": scaffold.cmd_new, "validate": cmd_validate, "bench": bench.cmd_bench,
                "export": pte.cmd_export, "coverage": pte.cmd_coverage, "run": pte.cmd_run,
                "llm": llm.cmd_llm, "web": web_site.cmd_web}
    try:
        status = handlers[args.command](args)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return status
    except USER_ERRORS as e:
        print(f"opgen {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`opgen list | head`): stop quietly, and keep Python from
        # failing again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
