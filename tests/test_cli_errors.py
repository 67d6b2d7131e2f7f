"""Every opgen subcommand (but `new`) answers a user error with
`opgen <command>: error: <message>` on stderr and a non-zero exit, never a traceback.

Each case runs the real command line (`python -m codegen ...`) in a subprocess and
checks the exit status, the prefix, that the message names what was wrong and what
was expected, and that no traceback leaked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.paths import REPO_ROOT
from scratch_repo import copy_repo

FACTORIES = "tests/e2e_models.py"


def opgen(*argv: str, cwd: Path = REPO_ROOT, env: dict | None = None,
          timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "codegen", *argv], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, **(env or {})},
                          timeout=timeout)


def assert_user_error(res: subprocess.CompletedProcess, command: str, *fragments: str) -> None:
    assert "Traceback" not in res.stderr, res.stderr[-3000:]
    assert res.returncode == 2, (res.returncode, res.stderr[-3000:])
    assert f"opgen {command}: error: " in res.stderr, res.stderr[-3000:]
    for fragment in fragments:
        assert fragment in res.stderr, (fragment, res.stderr[-3000:])


@pytest.fixture(scope="module")
def not_a_pte(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "notes.pte"
    path.write_text("these are not the bytes of a program\n")
    return path


@pytest.fixture(scope="module")
def pte_header_only(tmp_path_factory) -> Path:
    """Passes the file check (the ET identifier), so the next check is reached."""
    path = tmp_path_factory.mktemp("cli") / "header.pte"
    path.write_bytes(b"\0\0\0\0ET12" + bytes(56))
    return path


# --- bad factories (export, coverage, run --reference share the loader) --------------------
FACTORY_CASES = [
    (f"{FACTORIES}:nope", ["has no factory 'nope'", "factories: ", "cnn_stem"]),
    (FACTORIES, ["expected <", f"got '{FACTORIES}'"]),
    ("nofile.py:f", ["nofile.py: no such Python file"]),
    ("no_such_module_here:f", ["no Python module named 'no_such_module_here'"]),
    (f"{FACTORIES}:hf_rope", ["takes arguments (xq, xk, freqs_cos, freqs_sin)",
                              "a factory takes none"]),
    (f"{FACTORIES}:CnnStem", ["returned CnnStem", "(model, example_inputs)"]),
]


@pytest.mark.parametrize("factory,fragments", FACTORY_CASES, ids=[c[0] for c in FACTORY_CASES])
def test_coverage_bad_factory(factory, fragments):
    assert_user_error(opgen("coverage", factory), "coverage", *fragments)


def test_export_bad_factory(tmp_path):
    res = opgen("export", f"{FACTORIES}:nope", "-o", str(tmp_path / "x.pte"))
    assert_user_error(res, "export", "has no factory 'nope'")


def test_run_bad_reference(pte_header_only):
    res = opgen("run", str(pte_header_only), "--reference", "nofile.py:f")
    assert_user_error(res, "run", "nofile.py: no such Python file")


# --- files -------------------------------------------------------------------------------
def test_coverage_missing_pte(tmp_path):
    missing = tmp_path / "missing.pte"
    assert_user_error(opgen("coverage", str(missing)), "coverage",
                      f"{missing}: no such .pte file")


def test_coverage_not_a_pte(not_a_pte):
    assert_user_error(opgen("coverage", str(not_a_pte)), "coverage",
                      f"{not_a_pte} is not an ExecuTorch program", "ET file identifier")


def test_run_missing_pte(tmp_path):
    missing = tmp_path / "missing.pte"
    assert_user_error(opgen("run", str(missing)), "run", f"{missing}: no such .pte file")


def test_run_not_a_pte(not_a_pte):
    assert_user_error(opgen("run", str(not_a_pte)), "run", "is not an ExecuTorch program")


def test_run_without_a_built_runner(pte_header_only, tmp_path):
    runner = tmp_path / "no_runner_here"
    res = opgen("run", str(pte_header_only), env={"OPGEN_PTE_RUNNER": str(runner)})
    assert_user_error(res, "run", f"webgpu_pte_runner not found at {runner}",
                      "OPGEN_PTE_RUNNER")


def _fake_runner(folder: Path, stamp: str | None) -> Path:
    """A program that answers --build-stamp with `stamp` (None: as a runner built before
    build stamps, which rejects the flag)."""
    runner = folder / "fake_runner"
    answer = f"echo {stamp}" if stamp else "echo 'unknown argument --build-stamp' >&2; exit 2"
    runner.write_text(f"#!/bin/sh\n{answer}\n")
    runner.chmod(0o755)
    return runner


@pytest.mark.parametrize("stamp,fragment", [
    ("0" * 64, "was built from older generated sources than generated/ (its build stamp "
               "000000000000, generated/'s "),
    (None, "was built before build stamps (it has no --build-stamp)")], ids=["old", "unstamped"])
def test_stale_runners_are_refused_with_the_rebuild_command(stamp, fragment, tmp_path,
                                                            pte_header_only):
    """A runner built from other generated sources (a kernel edited and regenerated, no
    rebuild) would run the old handlers: the native executor and the .pte runner refuse
    it, naming the rebuild command."""
    runner = _fake_runner(tmp_path, stamp)
    res = opgen("validate", "--op", "relu", env={"OPGEN_NATIVE_RUNNER": str(runner)})
    assert_user_error(res, "validate", f"webgpu_op_runner at {runner} {fragment}",
                      f"rebuild it with `cmake --build {tmp_path}`")
    res = opgen("run", str(pte_header_only), env={"OPGEN_PTE_RUNNER": str(runner)})
    assert_user_error(res, "run", f"webgpu_pte_runner at {runner} {fragment}",
                      f"rebuild it with `cmake --build {tmp_path}`")


def test_native_executor_refuses_a_stale_runner(tmp_path, monkeypatch):
    import torch

    from codegen.executors import native
    from codegen.paths import StaleBuildError

    monkeypatch.setenv("OPGEN_NATIVE_RUNNER", str(_fake_runner(tmp_path, "1" * 64)))
    with pytest.raises(StaleBuildError, match="rebuild it with `cmake --build "):
        native.call("aten.relu.default", torch.ones(4))


def test_the_build_computes_the_stamp_python_computes(tmp_path):
    """tools/generated_stamp.cmake (what the runners print) and codegen.paths agree, on
    generated/ and on a tree of edge cases (nested folders, names that sort by byte)."""
    from codegen.paths import GENERATED_DIR, generated_stamp

    cmake = Path(sys.executable).parent / "cmake"
    cmake = str(cmake) if cmake.exists() else "cmake"
    tree = tmp_path / "tree"
    for name, text in {"b.cpp": "b", "B.h": "B", "ops/a/A.cpp": "a\n", "ops/a_b/x.h": "",
                       "ops/ab.cpp": "ab", "notes.json": "not compiled"}.items():
        (tree / "generated" / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / "generated" / name).write_text(text)
    for root, generated in ((tree, tree / "generated"), (REPO_ROOT, GENERATED_DIR)):
        header = tmp_path / f"stamp_{root.name}.h"
        subprocess.run([cmake, f"-DSOURCE_DIR={root}", f"-DOUTPUT={header}", "-P",
                        str(REPO_ROOT / "tools" / "generated_stamp.cmake")], check=True)
        assert f'#define WEBGPU_GENERATED_STAMP "{generated_stamp(generated)}"' in \
            header.read_text()


def test_run_bad_iters(pte_header_only):
    assert_user_error(opgen("run", str(pte_header_only), "--iters", "0"), "run",
                      "argument --iters: expected a positive integer, got '0'")


def test_export_to_a_missing_directory(tmp_path):
    out = tmp_path / "no_such_dir" / "x.pte"
    assert_user_error(opgen("export", f"{FACTORIES}:cnn_stem", "-o", str(out)), "export",
                      f"-o {out}: directory {out.parent} does not exist")


def test_export_to_a_directory(tmp_path):
    assert_user_error(opgen("export", f"{FACTORIES}:cnn_stem", "-o", str(tmp_path)), "export",
                      f"-o {tmp_path} is a directory")


def test_export_strict_guards_names_node_and_guard(tmp_path):
    pytest.importorskip("executorch")
    out = tmp_path / "pool.pte"
    res = opgen("export", f"{FACTORIES}:pool_ceil_mode", "-o", str(out), "--strict-guards")
    assert_user_error(res, "export", "the spec guards reject 1 node(s)",
                      "(aten.max_pool2d_with_indices.default), argument ceil_mode: "
                      "WebGPU max_pool2d_with_indices: ceil_mode is not supported")
    assert not out.exists()


# --- validate, check, bench -----------------------------------------------------------------
def test_validate_unknown_op():
    assert_user_error(opgen("validate", "--op", "relu", "--op", "nosuchop"), "validate",
                      "--op nosuchop: no such op", "relu", "conv2d")


def test_check_op_needs_shaders_and_a_known_op():
    assert_user_error(opgen("check", "--op", "relu"), "check",
                      "--op picks the kernels --shaders compiles: add --shaders")
    assert_user_error(opgen("check", "--shaders", "--op", "nosuchop"), "check",
                      "--op nosuchop: no such op", "relu")


BENCH_CASES = [
    (["nosuch.op"], ["no spec implements target 'nosuch.op'", "aten.relu.default"]),
    (["nosuch.op", "--call", "randn(4)"], ["no spec implements target 'nosuch.op'"]),
    (["aten.relu.default", "--call", "randn(2"], ["--call 'randn(2' is not a tuple",
                                                  "expected Python over randn"]),
    (["aten.relu.default", "--call", "foo(2)"], ["name 'foo' is not defined"]),
    (["aten.relu.default", "--call", "randn(2, 3), 5"],
     ["--call gives 2 arguments; aten.relu.default takes at most 1 (self)"]),
    (["aten.relu.default", "--call", "randint(0, 3, 4)"],
     ["is rejected by the spec: WebGPU relu: self has an unsupported dtype"]),
    (["aten.relu.default", "--call", "randn(-2, 3)"], ["makes no tensor"]),
    (["--call", "randn(4)"], ["--call needs a target"]),
    (["--suite", "nosuch"], ["--suite 'nosuch': no such suite", "smoke"]),
    (["--suite", "smoke", "aten.relu.default"], ["--suite runs its own targets"]),
    (["--force", "nokernel"], ["--force names unknown kernels nokernel", "relu"]),
    (["--peak", "GB/s=fast"], ["--peak expects UNIT=VALUE", "(got 'GB/s=fast')"]),
    (["--iters", "0"], ["--iters must be >= 1"]),
    (["aten.relu.default", "--json", "/nonexistent_dir/x.json"],
     ["--json /nonexistent_dir/x.json: expected a file in an existing directory"]),
]


@pytest.mark.parametrize("argv,fragments", BENCH_CASES, ids=[" ".join(c[0]) for c in BENCH_CASES])
def test_bench_user_errors(argv, fragments):
    assert_user_error(opgen("bench", *argv), "bench", *fragments)


# --- argument parsing, specs that do not load, closed pipes ---------------------------------
# each command with its required arguments (parsing fails before anything runs)
PARSED = {"generate": [], "check": [], "list": [], "validate": [], "bench": [],
          "export": ["m:f", "-o", "x.pte"], "run": ["x.pte"], "coverage": ["x.pte"]}


@pytest.mark.parametrize("command", sorted(PARSED))
def test_unrecognized_argument_is_named_by_the_command(command):
    assert_user_error(opgen(command, *PARSED[command], "--no-such-flag"), command,
                      "unrecognized arguments: --no-such-flag")


@pytest.fixture(scope="module")
def broken_spec_tree(tmp_path_factory) -> Path:
    """A copy of the toolkit with one spec that does not validate."""
    root = copy_repo(tmp_path_factory.mktemp("tree") / "repo")
    spec = root / "codegen" / "specs" / "broken" / "broken.py"
    spec.parent.mkdir()
    spec.write_text("from codegen.language import Op\n"
                    "OPS = [Op(name='broken', targets=['aten.tanh.default'], args=[])]\n")
    return root


@pytest.mark.parametrize("command", ["generate", "check", "list"])
def test_a_spec_that_does_not_load(command, broken_spec_tree):
    res = opgen(command, cwd=broken_spec_tree)
    assert_user_error(res, command, "codegen/specs/broken/broken.py:2: Op 'broken'",
                      "'dispatches'")


@pytest.fixture(scope="module")
def syntax_error_tree(tmp_path_factory) -> Path:
    """A copy of the toolkit with a spec whose line 4 lacks a comma."""
    root = copy_repo(tmp_path_factory.mktemp("tree") / "repo")
    spec = root / "codegen" / "specs" / "broken" / "broken.py"
    spec.parent.mkdir()
    spec.write_text("from codegen.language import Op\n\n"
                    "OPS = [Op(name='broken',\n"
                    "          targets=['aten.tanh.default']\n"
                    "          args=[])]\n")
    return root


def test_a_spec_syntax_error_is_reported_at_its_line(syntax_error_tree):
    res = opgen("list", cwd=syntax_error_tree)
    assert_user_error(res, "list", "codegen/specs/broken/broken.py:4:", "SyntaxError: ",
                      "targets=['aten.tanh.default']")
    assert "broken.py:1:" not in res.stderr


def test_closed_stdout_ends_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "codegen", "list"], cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line (`opgen list | head -0`)
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141  # as a shell reports a program SIGPIPE ended
    assert stderr == ""
