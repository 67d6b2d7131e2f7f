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
    (("Tensor(\"self\")", "Tensor(\"self\", dtypes=(\"float31\",))"), "dtypes must be", SHARED),
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
    assert "escape hatches:" in res.stdout


def test_dispatch_helpers_are_synced_into_every_kernel(repo):
    helpers = repo / "codegen/specs/conv2d/conv_epilogue.wgsl"
    helpers.write_text(helpers.read_text().replace("var v = acc;", "var v = acc + 0.0;"))
    res = opgen(repo, "check")
    assert res.returncode == 1
    stale = [line for line in res.stderr.splitlines()
             if "stale: generated/" in line and line.endswith(".wgsl")]
    assert len(stale) == 8, res.stderr  # the eight conv kernels share the helpers
    assert opgen(repo, "generate").returncode == 0
    assert "var v = acc + 0.0;" in (repo / "generated/ops/conv2d/conv2d_gemm_wgsl.h").read_text()


def test_kernel_helpers_reach_that_kernel_alone_across_spec_folders(repo):
    # conv2d_gemm128 names ../matmul/gemm_tile.wgsl; its dispatch's other kernels do not
    tile = repo / "codegen/specs/matmul/gemm_tile.wgsl"
    tile.write_text(tile.read_text().replace("let tid = lid.y * 16u + lid.x;",
                                             "let tid = lid.y * 16u + lid.x + 0u;"))
    res = opgen(repo, "check")
    assert res.returncode == 1
    stale = sorted(line.rsplit("/", 1)[-1] for line in res.stderr.splitlines()
                   if "stale: generated/" in line and line.endswith(".wgsl"))
    assert stale == ["conv2d_gemm128.wgsl", "gemm_scalar.wgsl", "gemm_small.wgsl",
                     "gemm_small_scalar.wgsl", "gemm_vec4.wgsl", "gemv_nn.wgsl"], res.stderr
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
    res = opgen(repo, "check", "--shaders")
    assert res.returncode == 1
    assert "const_assert ITEMS_PER_INVOCATION == 4u" in res.stderr


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
        (("foo", "--target", "aten.log1p"), "--target must be namespace.op.overload"),
        (("Foo", "--target", "aten.log1p.default"), "op name must be lower_snake_case"),
        (("sym", "--target", "aten.sym_size.int"), "returns SymInt, no tensor"),
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
