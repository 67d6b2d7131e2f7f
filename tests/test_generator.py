"""The generator: determinism, drift detection, composed kernel modules, transactional writes,
spec errors and the scaffold, each on a scratch copy of the repository."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from scratch_repo import ROOT, copy_repo, opgen, snapshot

from codegen.language import Kernel
from codegen.language.checked import SpecError



@pytest.fixture
def repo(tmp_path):
    return copy_repo(tmp_path / "repo")


def test_committed_tree_is_up_to_date():
    res = opgen(ROOT, "check")
    assert res.returncode == 0, res.stderr


def test_generation_is_deterministic(repo):
    committed = snapshot(repo)
    shutil.rmtree(repo / "generated")
    assert opgen(repo, "generate").returncode == 0
    first = snapshot(repo)
    assert opgen(repo, "generate").returncode == 0
    assert snapshot(repo) == first
    assert first == committed


def test_edited_shader_body_is_detected_and_fixed(repo):
    shader = repo / "codegen/specs/unary/relu.wgsl"
    shader.write_text(shader.read_text().replace("vec4<f32>(0.0), negative", "vec4<f32>(-0.0), negative"))
    res = opgen(repo, "check")
    assert res.returncode == 1
    assert "stale: generated/ops/unary/relu_wgsl.h" in res.stderr
    assert opgen(repo, "generate").returncode == 0
    assert opgen(repo, "check").returncode == 0
    assert "vec4<f32>(-0.0), negative" in (repo / "generated/ops/unary/relu_wgsl.h").read_text()


def test_edited_module_is_stale_and_authored_files_are_never_written(repo):
    module = repo / "generated/ops/unary/sigmoid.wgsl"
    module.write_text(module.read_text().replace("num_vec4: u32", "num_vec4: i32"))
    authored = snapshot(repo, "codegen/specs")
    res = opgen(repo, "check")
    assert res.returncode == 1
    assert "stale: generated/ops/unary/sigmoid.wgsl" in res.stderr
    assert opgen(repo, "generate").returncode == 0
    assert "num_vec4: u32" in module.read_text()
    assert snapshot(repo, "codegen/specs") == authored


def test_authored_kernels_hold_no_generated_text():
    """The interface (Params, bindings, workgroup size) lives in the spec alone."""
    for path in (ROOT / "codegen/specs").rglob("*.wgsl"):
        text = path.read_text()
        for generated in ("@binding(", "struct Params", "const WORKGROUP_SIZE_", "@opgen-"):
            assert generated not in text, f"{path}: holds generated text ({generated!r})"


def test_no_two_kernel_sources_share_a_body():
    """Element-type and width variants come from one body (Kernel.variant), never a copy."""
    seen = {}
    for path in sorted((ROOT / "codegen/specs").rglob("*.wgsl")):
        code = "\n".join(l for l in path.read_text().splitlines()
                         if l.strip() and not l.strip().startswith("//"))
        assert code not in seen, f"{path} repeats the body of {seen[code]}"
        seen[code] = path


def test_a_variant_is_its_own_module_from_one_body():
    from codegen.lower.catalog import catalog

    kernels = catalog().kernels
    base, vec4 = kernels["index_tensor"][0], kernels["index_tensor_vec4"][0]
    assert base.path == vec4.path  # one authored file
    one = (ROOT / "generated/ops/index_tensor/index_tensor.wgsl").read_text()
    four = (ROOT / "generated/ops/index_tensor/index_tensor_vec4.wgsl").read_text()
    assert "const LANES = 1u;" in one and "const LANES = 4u;" in four
    assert "array<u32>" in one and "array<vec4<u32>>" in four
    with pytest.raises(SpecError, match="alias 'Word'"):
        base.variant("bad_variant", aliases={"Word": "vec5<u32>"})


def test_a_file_with_the_old_declaration_block_is_told_to_drop_it(repo):
    shader = repo / "codegen/specs/unary/relu.wgsl"
    shader.write_text("// @opgen-begin declarations: generated\n// @opgen-end declarations\n"
                      + shader.read_text())
    res = opgen(repo, "generate")
    assert res.returncode == 2, res.stderr
    assert "codegen/specs/unary/relu.wgsl: holds a generated declaration block" in res.stderr
    assert "Traceback" not in res.stderr


def test_orphan_and_missing_outputs_are_listed(repo):
    (repo / "generated/ops/unary/Stray.cpp").write_text("// not generated\n")
    (repo / "generated/ops/unary/Relu.cpp").unlink()
    res = opgen(repo, "check")
    assert res.returncode == 1
    assert "orphan: generated/ops/unary/Stray.cpp" in res.stderr
    assert "missing: generated/ops/unary/Relu.cpp" in res.stderr
    assert opgen(repo, "generate").returncode == 0
    assert not (repo / "generated/ops/unary/Stray.cpp").exists()


def test_params_type_change_flows_to_wgsl_cpp_and_harness(repo):
    spec = repo / "codegen/specs/unary/_family.py"  # the unary ops' shared dispatch
    spec.write_text(spec.read_text().replace(
        'params={"num_vec4": u32("ceil_div(out.numel, 4)"),',
        'params={"probe": Param("vec3<u32>", "[1, 2, 3]"), '
        '"num_vec4": u32("ceil_div(out.numel, 4)"),'
    ).replace("from codegen.language import (", "from codegen.language import (Param, "))
    assert opgen(repo, "generate").returncode == 0
    wgsl = (repo / "generated/ops/unary/leaky_relu.wgsl").read_text()
    assert "probe: vec3<u32>,\n  num_vec4: u32,\n  negative_slope: f32," in wgsl
    cpp = (repo / "generated/ops/unary/LeakyRelu.cpp").read_text()
    assert "uint32_t probe[3];" in cpp
    assert "offsetof(LeakyReluParams, num_vec4) == 12" in cpp
    assert "offsetof(LeakyReluParams, negative_slope) == 16" in cpp
    assert "sizeof(LeakyReluParams) == 32" in cpp
    code = ("from codegen.executors import harness, cases\nfrom codegen.executors.call import catalog\n"
            "runs = [r for r in cases.all_case_runs(catalog()) if r.op.op.name == 'leaky_relu']\n"
            "for r in runs: cases.execute(r, harness.EXECUTOR)\nprint(len(runs))")
    res = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True,
                         env=dict(os.environ, XDG_RUNTIME_DIR="/tmp"))
    assert res.returncode == 0, res.stderr
    assert int(res.stdout) >= 4


def test_two_specs_for_one_target_are_rejected(repo):
    dup = repo / "codegen/specs/dup"
    dup.mkdir()
    (dup / "dup.py").write_text(
        "from codegen.language import *\n"
        "OPS = [Op(name='relu_again', targets=['aten.relu.default'], args=[Tensor('self'), "
        "Output('out')], shapes={'out': 'self.dims'}, resize='static', dispatches=[Copy('self', "
        "'out', 'self.numel * 4')])]\n")
    before = snapshot(repo)
    res = opgen(repo, "generate")
    assert res.returncode == 2
    assert "codegen/specs/dup/dup.py" in res.stderr
    assert "aten.relu.default" in res.stderr and "codegen/specs/unary/unary.py" in res.stderr
    assert "Traceback" not in res.stderr
    assert snapshot(repo) == before


# the edits hit the unary family's shared module: a mistake made when a spec file runs names
# that module's line; one found when an op is checked names the first spec file whose op
# it breaks (rounding.py's round) and the op
SHARED = "codegen/specs/unary/_family.py:"
ROUND = "codegen/specs/unary/rounding.py: op 'round'"


@pytest.mark.parametrize("edit, message, named", [
    (("u32(\"ceil_div(out.numel, 4)\")", "u32(\"out.numel +\")"), "syntax error", ROUND),
    (("u32(\"ceil_div(out.numel, 4)\")", "u32(\"nonsense.numel\")"), "unknown name 'nonsense'",
     ROUND),
    (("resize=\"dynamic\"", "resize=\"sometimes\""), "Op resize must be one of dynamic, static",
     SHARED),
    (("Bind(\"input\", \"self\"", "Bind(\"input\", \"missing\""), "binds 'missing'", ROUND),
    (("Bind(\"input\", \"self\"", "Bind(\"output\", \"self\""), "binding names must be unique",
     SHARED),
    (("Tensor(\"self\", FLOATS)", "Tensor(\"self\", dtypes=(\"float31\",))"), "dtypes must be",
     SHARED),
    (("name=name,", "name=name, colour=1,"), "unexpected keyword argument 'colour'", SHARED),
    (("u32(\"ceil_div(out.numel, 4)\")", "Param(\"array<u32, 3>\", \"[1, 2, 3]\")"),
     "multiple of 16", SHARED),
])
def test_spec_errors_name_file_and_field(repo, edit, message, named):
    spec = repo / "codegen/specs/unary/_family.py"
    text = spec.read_text()
    assert edit[0] in text
    text = text.replace(edit[0], edit[1], 1)
    if "Param(" in edit[1]:
        text = text.replace("from codegen.language import (", "from codegen.language import (Param, ")
    spec.write_text(text)
    before = snapshot(repo)
    res = opgen(repo, "generate")
    assert res.returncode == 2, res.stderr
    assert named in res.stderr, res.stderr
    assert message in res.stderr
    assert "Traceback" not in res.stderr
    assert snapshot(repo) == before


def test_route_to_undeclared_override_is_rejected():
    from codegen.language import Elementwise, Kernel, Route, SpecError

    with pytest.raises(SpecError, match="does not declare"):
        Route(Kernel("k"), Elementwise("1"), overrides={"nope": "1"})


def test_failure_mid_write_leaves_old_files(repo, monkeypatch):
    from codegen.emit import writer

    files = {f"generated/f{i}.txt": f"new {i}\n" for i in range(5)}
    for i in range(5):
        (repo / f"generated/f{i}.txt").write_text(f"old {i}\n")
    calls = {"n": 0}
    real = writer._fsync_write

    def flaky(path, data):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full (injected)")
        real(path, data)

    monkeypatch.setattr(writer, "_fsync_write", flaky)
    with pytest.raises(writer.WriteError, match="injected.*no file was changed"):
        writer.commit(repo, files, [], [repo / "generated"])
    assert [(repo / f"generated/f{i}.txt").read_text() for i in range(5)] == [f"old {i}\n" for i in range(5)]
    assert not list((repo / "generated").rglob("*.opgen-new"))


def test_kill_after_journal_is_rolled_forward(repo, monkeypatch):
    from codegen.emit import writer

    files = {f"generated/f{i}.txt": f"new {i}\n" for i in range(4)}

    def killed(root, journal):
        raise KeyboardInterrupt("killed (injected) after the journal was written")

    monkeypatch.setattr(writer, "_apply", killed)
    with pytest.raises(KeyboardInterrupt):
        writer.commit(repo, files, [], [repo / "generated"])
    assert (repo / writer.JOURNAL).exists()
    monkeypatch.undo()
    writer.recover(repo, [repo / "generated"])
    assert [(repo / f"generated/f{i}.txt").read_text() for i in range(4)] == [f"new {i}\n" for i in range(4)]
    assert not (repo / writer.JOURNAL).exists()


def test_unwritable_staging_path_leaves_every_file_old(repo):
    """A write that really fails (root included) while the new files are staged, before
    the journal: a clean error, every file old, nothing staged left behind."""
    shader = repo / "codegen/specs/unary/relu.wgsl"
    shader.write_text(shader.read_text().replace("vec4<f32>(0.0), negative", "vec4<f32>(-0.0), negative"))
    spec = repo / "codegen/specs/unary/_family.py"  # a Params change: many files change
    text = spec.read_text()
    assert '"num_vec4": u32("ceil_div(out.numel, 4)")' in text
    spec.write_text(text.replace('"num_vec4": u32("ceil_div(out.numel, 4)")',
                                 '"num_vec4": u32("ceil_div(out.numel, 4)"), "pad": u32("1")'))
    blocker = repo / "generated/ops/unary/relu_wgsl.h.opgen-new"
    blocker.mkdir()  # the staged file cannot be written: a directory holds its name
    before = snapshot(repo)
    res = opgen(repo, "generate")
    assert res.returncode == 2, res.stderr
    assert "cannot stage generated/ops/unary/relu_wgsl.h" in res.stderr, res.stderr
    assert "no file was changed" in res.stderr and "Traceback" not in res.stderr
    assert snapshot(repo) == before
    assert [p for p in repo.rglob("*.opgen-new")] == [blocker]
    assert not (repo / ".opgen-journal").exists()
    blocker.rmdir()
    assert opgen(repo, "generate").returncode == 0  # the cause fixed: all new
    assert opgen(repo, "check").returncode == 0


def test_target_replaced_by_a_directory_is_finished_by_the_next_run(repo):
    """A failure after the journal (a target that cannot be replaced): a clean error that
    says how to finish, and the next run rolls every file forward."""
    shader = repo / "codegen/specs/unary/relu.wgsl"
    shader.write_text(shader.read_text().replace("vec4<f32>(0.0), negative", "vec4<f32>(-0.0), negative"))
    spec = repo / "codegen/specs/unary/_family.py"
    text = spec.read_text()
    assert '"num_vec4": u32("ceil_div(out.numel, 4)")' in text
    spec.write_text(text.replace('"num_vec4": u32("ceil_div(out.numel, 4)")',
                                 '"num_vec4": u32("ceil_div(out.numel, 4)"), "pad": u32("1")'))
    header = repo / "generated/ops/unary/relu_wgsl.h"
    header.unlink()
    header.mkdir()  # os.replace cannot put a file over a directory
    res = opgen(repo, "generate")
    assert res.returncode == 2, res.stderr
    assert "relu_wgsl.h" in res.stderr and "run opgen generate again" in res.stderr
    assert "Traceback" not in res.stderr
    assert (repo / ".opgen-journal").exists()
    header.rmdir()
    res = opgen(repo, "generate")
    assert res.returncode == 0, res.stderr
    assert not (repo / ".opgen-journal").exists()
    assert opgen(repo, "check").returncode == 0
    assert "vec4<f32>(-0.0), negative" in header.read_text()
    assert "pad: u32" in (repo / "generated/ops/unary/sigmoid.wgsl").read_text()


def test_concurrent_generates_serialize(repo):
    shader = repo / "codegen/specs/unary/relu.wgsl"
    shader.write_text(shader.read_text().replace("vec4<f32>(0.0), negative", "vec4<f32>(-0.0), negative"))
    env = dict(os.environ, XDG_RUNTIME_DIR="/tmp")
    procs = [subprocess.Popen([sys.executable, "-m", "codegen", "generate"], cwd=repo, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    assert all(p.wait() == 0 for p in procs)
    assert opgen(repo, "check").returncode == 0
    assert not list(repo.rglob("*.opgen-new"))


def test_scaffold_generates_cleanly_and_fails_until_written(repo):
    res = opgen(repo, "new", "log1p", "--target", "aten.log1p.default")
    assert res.returncode == 0, res.stderr
    assert "warning" not in res.stderr  # torch.export keeps log1p
    assert opgen(repo, "check").returncode == 0
    table = json.loads((repo / "generated/op_table.json").read_text())
    assert any(o["op"] == "log1p" for o in table["ops"])
    code = ("from codegen.executors import harness, cases\nfrom codegen.executors.call import catalog\n"
            "r = [r for r in cases.all_case_runs(catalog()) if r.op.op.name == 'log1p'][0]\n"
            "cases.execute(r, harness.EXECUTOR)\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True,
                         env=dict(os.environ, XDG_RUNTIME_DIR="/tmp"))
    assert res.returncode != 0 and "log1p[basic]" in res.stderr
    again = opgen(repo, "new", "log1p", "--target", "aten.log1p.default")
    assert again.returncode == 2 and "already exists" in again.stderr


def test_list_shows_ops_routes_and_escape_hatches():
    res = opgen(ROOT, "list")
    assert res.returncode == 0
    assert "relu  (aten.relu.default)" in res.stdout
    assert "route relu" in res.stdout
    # the summary is a whole sentence, never a bare "escape hatches:"
    last = res.stdout.splitlines()[-1]
    assert re.fullmatch(r"\d+ ops, \d+ kernels; escape hatches \(hand-written C\+\+ "
                        r"helpers\): none", last), last


def test_dispatch_helpers_are_synced_into_every_kernel(repo):
    helpers = repo / "codegen/specs/conv2d/conv_epilogue.wgsl"
    helpers.write_text(helpers.read_text().replace("var v = acc;", "var v = acc + 0.0;"))
    res = opgen(repo, "check")
    assert res.returncode == 1
    stale = [line for line in res.stderr.splitlines()
             if "stale: generated/" in line and line.endswith(".wgsl")]
    # the eight conv kernels and their float16 twins share the helpers
    assert len(stale) == 24, res.stderr
    assert opgen(repo, "generate").returncode == 0
    assert "var v = acc + 0.0;" in (repo / "generated/ops/conv2d/conv2d_gemm_wgsl.h").read_text()


def test_kernel_helpers_reach_that_kernel_alone_across_spec_folders(repo):
    # conv2d_gemm128 and linear_q4gsw's q4gsw_gemm (and its dq8 and silu_mul variants)
    # name ../matmul/gemm_tile.wgsl, as do the matmul tiles; the other kernels of their
    # dispatches do not
    tile = repo / "codegen/specs/matmul/gemm_tile.wgsl"
    tile.write_text(tile.read_text().replace("let tid = lid.y * 16u + lid.x;",
                                             "let tid = lid.y * 16u + lid.x + 0u;"))
    res = opgen(repo, "check")
    assert res.returncode == 1
    stale = sorted(line.rsplit("/", 1)[-1] for line in res.stderr.splitlines()
                   if "stale: generated/" in line and line.endswith(".wgsl"))
    # each with its float16 twins
    assert stale == sorted(f"{k}{twin}.wgsl" for k in (
        "conv2d_gemm128", "gemm_scalar", "gemm_vec4", "gemm_vec4_m32", "gemm_vec4_m64",
        "q4gsw_gemm", "q4gsw_gemm_dq8", "q4gsw_gemm_silu_mul")
        for twin in ("", "_f16", "_f16_packed")), res.stderr
    with pytest.raises(SpecError, match="helpers must name .wgsl files"):
        Kernel("k", helpers=("tile.txt",))


def test_items_per_invocation_reach_the_grid_and_the_kernel(repo):
    from codegen.executors import harness
    from codegen.graph.inputs import materialize, randn

    # relu: 4 vec4s per invocation, 128 invocations per workgroup
    (x,) = materialize((randn(1000 * 16 + 3),), "per-invocation")
    assert harness.build("aten.relu.default", x).plans[0].grid == (8, 1, 1)  # 4001 vec4s
    kernel = (ROOT / "generated/ops/unary/relu.wgsl").read_text()
    assert "const ITEMS_PER_INVOCATION: u32 = 4u;" in kernel and "fn first_item(" in kernel

    # the kernel names four vec4s: a spec that gives it two fails the shader check
    spec = repo / "codegen/specs/unary/_family.py"
    spec.write_text(spec.read_text().replace("per_invocation=4", "per_invocation=2"))
    assert opgen(repo, "generate").returncode == 0
    res = opgen(repo, "check", "--shaders", "--op", "relu")  # relu's kernels alone
    assert res.returncode == 1
    assert "const_assert ITEMS_PER_INVOCATION == 4u" in res.stderr
    table = json.loads((ROOT / "generated/op_table.json").read_text())["ops"]
    kernels = next(o["kernels"] for o in table if o["op"] == "relu")
    assert f"({len(kernels)} kernels compiled with naga and Tint)" in res.stderr, res.stderr
    assert "kernel relu (naga)" in res.stderr and "kernel relu (Tint)" in res.stderr, res.stderr


def test_items_per_invocation_out_of_range_is_a_spec_error():
    from codegen.language import Elementwise, SpecError

    with pytest.raises(SpecError, match=r"Elementwise per_invocation must be 1\.\.16 \(got 0\)"):
        Elementwise("n", per_invocation=0)


def test_opgen_new_refuses_before_writing_anything(repo):
    """Every refusal of `opgen new` is a clean `opgen new: error:` with exit 2, decided
    before a file is written (the repository stays as it was)."""
    before = snapshot(repo)
    for args, message in [
        (("relu2", "--target", "aten.relu.default"),
         "target aten.relu.default is already implemented by op 'relu' in "
         "codegen/specs/unary/unary.py"),
        (("relu", "--target", "aten.log1p.default"), "op name 'relu' is already used by "
                                                    "codegen/specs/unary/unary.py"),
        (("unary", "--target", "aten.log1p.default"), "codegen/specs/unary already exists"),
        (("foo", "--target", "aten.nonexistent_op.default"),
         "target 'aten.nonexistent_op.default' is not known to torch"),
        # a misspelling names the real overloads nearest to it
        (("foo", "--target", "aten.erff.default"),
         "(torch.ops.aten.erff.default does not exist); did you mean aten.erf.default, "
         "aten.erf.out, aten.erfc.default"),
        (("foo", "--target", "aten.erf.defualt"), "did you mean aten.erf.default, aten.erf.out?"),
        (("foo", "--target", "aten.log1p"), "--target must be namespace.op.overload"),
        (("Foo", "--target", "aten.log1p.default"), "op name must be lower_snake_case"),
        (("sym", "--target", "aten.sym_numel.default"), "returns SymInt, no tensor"),
    ]:
        res = opgen(repo, "new", *args)
        assert res.returncode == 2, (args, res.stderr)
        assert res.stderr.startswith("opgen new: error: ") and message in res.stderr, res.stderr
        assert "Traceback" not in res.stderr
    assert snapshot(repo) == before
    assert not any((repo / "codegen/specs" / n).exists() for n in ("relu2", "foo", "sym"))


def test_opgen_new_scaffolds_keyword_only_and_string_arguments(repo):
    """div.Scalar_mode's `*, str? rounding_mode`: a Str argument whose values start from
    its default and the sample's mode, passed by keyword in the case (a valid call)."""
    res = opgen(repo, "new", "div_scalar_mode", "--target", "aten.div.Scalar_mode")
    assert res.returncode == 0, res.stderr
    text = (repo / "codegen/specs/div_scalar_mode/div_scalar_mode.py").read_text()
    assert re.search(r"Str\('rounding_mode', values=\('', '(trunc|floor)'\), optional=True\)",
                     text), text
    assert re.search(r'kwargs=\{"rounding_mode": "(trunc|floor)"\}', text), text
    assert opgen(repo, "check").returncode == 0


LET_SPEC = '''
from codegen.language import Bind, Dispatch, Elementwise, Guard, Kernel, Op, Output, Route, Tensor

OPS = [Op(
    name="let_demo", targets=["aten.tanh.default"], args=[Tensor("x"), Output("out")],
    let={"D": "x.dims[2]", "R": "x.rank"},  # D assumes the rank the guard checks
    guards=[Guard("x.rank == 3", "x", "is not of rank 3", got="x.rank", expected="3")],
    shapes={"out": "x.dims"}, resize="dynamic",
    dispatches=[Dispatch(params={}, bindings=[Bind("x", "x"), Bind("out", "out", write=True)],
                         routes=[Route(Kernel("let_demo"), Elementwise("out.numel"))])],
)]
'''


def test_a_failing_let_names_the_op_and_the_let(tmp_path):
    """Lets run before guards: a let that assumes what a guard checks fails first, and
    says which op and which let (not a bare `index 2 out of range for 2 values`), with the
    same text from the Python executors and the generated C++ (utils::let)."""
    from codegen.emit.cpp import render_steps
    from codegen.graph.errors import OpError
    from codegen.graph.values import Value
    from codegen.language.loader import load
    from codegen.lower import interpret
    from codegen.lower.steps import lower

    folder = tmp_path / "specs" / "let_demo"
    folder.mkdir(parents=True)
    (folder / "let_demo.py").write_text(LET_SPEC)
    (folder / "let_demo.wgsl").write_text("")
    lowering = lower(load(tmp_path / "specs").op("let_demo"))
    message = ("WebGPU let_demo: let D = x.dims[2] failed: index 2 out of range for 2 values "
               "(lets run before guards: each must hold for every input the tensor checks "
               "accept)")
    x = Value("Tensor", None, "float32", (4, 5))
    with pytest.raises(OpError) as raised:
        interpret.plan(lowering, [x, x], 65535)
    assert str(raised.value) == message
    handler = "\n".join(render_steps(lowering).check)
    assert 'const int64_t D = utils::let(kOp, "D = x.dims[2]", [&]() -> int64_t ' \
           '{ return x.dim(2); });' in handler, handler
    assert "const int64_t R = x.rank();" in handler  # cannot throw: no wrapper
    program = tmp_path / "let.cpp"
    program.write_text(
        '#include <iostream>\n#include "webgpu_delegate/op_support.h"\n'
        "using namespace webgpu_delegate;\nint main() {\n"
        "  const std::vector<int64_t> dims{4, 5};\n"
        '  try { utils::let("let_demo", "D = x.dims[2]", [&]() -> int64_t { '
        "return utils::at(dims, 2); }); }\n"
        "  catch (const Error& e) { std::cout << e.what(); }\n}\n")
    import wgpu

    include = os.path.join(os.path.dirname(wgpu.__file__), "resources")
    subprocess.run(["g++", "-std=c++17", "-I", str(ROOT / "cpp_runtime/include"), "-I", include,
                    str(program), "-o", str(tmp_path / "let")], check=True)
    out = subprocess.run([str(tmp_path / "let")], capture_output=True, text=True, check=True)
    assert out.stdout == message


def test_spec_api_page_covers_every_spec_class():
    """docs/spec_api.md is generated from the classes a spec imports (signatures,
    docstrings, field comments) and lists each of them."""
    from codegen import language
    from codegen.emit import spec_api

    page = (ROOT / spec_api.PATH).read_text()
    assert page == spec_api.render()
    internal = {"Arg", "SpecError", "ARG_KINDS", "ANY", "F16", "F32", "I32", "I64", "U8", "I8", "BOOL"}
    for name in sorted(set(language.__all__) - internal):
        assert f"\n### {name}\n" in page, name
    assert "Case(name: str, args: tuple = (), " in page
    assert "| `route` | the kernel this case must run |" in page


def test_spec_api_page_drift_is_detected_and_regenerated(repo):
    op_py = repo / "codegen/language/op.py"
    op_py.write_text(op_py.read_text().replace(
        'route: str = ""  # the kernel this case must run',
        'route: str = ""  # the kernel this case must take'))
    res = opgen(repo, "check")
    assert res.returncode == 1 and "stale: docs/spec_api.md" in res.stderr, res.stderr
    assert opgen(repo, "generate").returncode == 0
    assert "| `route` | the kernel this case must take |" in (repo / "docs/spec_api.md").read_text()
    assert opgen(repo, "check").returncode == 0


def test_opgen_new_scaffolds_an_elementwise_op_to_exercise_and_resize_and_warns_of_export(repo):
    """roll keeps its input's shape: its output follows the input (`self.dims`) and the op
    resizes with it; its case shifts (a zero shift would pass a copy); and torch.export
    decomposes it, which `opgen new` says, naming what it becomes."""
    res = opgen(repo, "new", "roll", "--target", "aten.roll.default")
    assert res.returncode == 0, res.stderr
    assert ("opgen new: warning: torch.export decomposes aten.roll.default into "
            "aten.add.Tensor, aten.arange.start_step, aten.fmod.Scalar, "
            "aten.index_select.default: an exported model never calls it") in res.stderr
    spec = (repo / "codegen/specs/roll/roll.py").read_text()
    assert 'shapes={"out": "self.dims"}' in spec and 'resize="dynamic"' in spec, spec
    case = re.search(r'Case\("basic", \((.*)\), route="roll"\)', spec).group(1)
    assert not case.endswith("[0], [0]"), case
    shuffle = opgen(repo, "new", "pixel_unshuffle", "--target", "aten.pixel_unshuffle.default")
    assert shuffle.returncode == 0, shuffle.stderr
    assert "decomposes aten.pixel_unshuffle.default into" in shuffle.stderr, shuffle.stderr
    # [1, 1, 6, 6] -> [1, 9, 2, 2]: no input's shape, so the sample's, and static
    spec = (repo / "codegen/specs/pixel_unshuffle/pixel_unshuffle.py").read_text()
    assert re.search(r'shapes=\{"out": "\[[\d, ]+\]"\}', spec), spec
    assert 'resize="static"' in spec


def test_no_toolkit_module_is_over_400_lines():
    """Modules stay focused and small (tools/code_sizes.py measures them)."""
    sizes = {p: p.read_text().count("\n") for p in (ROOT / "codegen").rglob("*.py")
             if "specs" not in p.relative_to(ROOT).parts}
    over = {str(p.relative_to(ROOT)): n for p, n in sizes.items() if n > 400}
    assert not over, over
