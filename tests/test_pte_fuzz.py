"""Mutation fuzzer for hostile .pte files against the delegate's VK00 loader, under
ASan + UBSan (issue 7, item 7).

One small model (tests/e2e_models.py) is exported once; a seeded, bounded set of
mutants of its VulkanBackend blob is built and each one is run by the sanitizer build of
`webgpu_pte_runner` (CMake: -DWEBGPU_SANITIZE=ON -DWEBGPU_EXECUTORCH=ON). Every mutant
must end in a clean error (exit 1 with a message) or a run (exit 0, outputs written):
never a signal, an abort, a hang (timeout) or sanitizer output.

Mutations:
  - raw bytes of the blob inside the .pte (flipped bits, bytes set to 0x00/0xff,
    32-bit words set to boundary values), and the VH00 header fields;
  - truncation of the blob, and of the .pte itself;
  - structural edits through the decoded flatbuffer (flatc --json, edit, flatc -b,
    re-wrapped in VH00 and the .pte): out-of-range value ids in operator arguments,
    graph inputs/outputs and ValueLists, ValueList cycles and forward references,
    values of the wrong type for an operator argument, constant ids / offsets /
    lengths / named keys out of range, huge or empty dims, bad dtypes, memory objects
    shared by mismatched tensors, unknown operators, dropped or extra arguments,
    custom shaders, removed values.

Environment:
  WEBGPU_ASAN_PTE_RUNNER  the sanitizer-built runner (default build-asan/webgpu_pte_runner);
                          the test FAILS when it is missing.
  WEBGPU_FUZZ_CASES       number of mutants (default 200).
  WEBGPU_FUZZ_SEED        seed (default 7).
  WEBGPU_FUZZ_JOBS        parallel runs (default: CPU count).
  WEBGPU_FUZZ_KEEP        directory to keep every failing mutant in (with its stderr).

The LD_PRELOAD and sanitizer options come from <runner dir>/sanitizer.env, written by
CMake for sanitizer builds (driver libraries kept resident; see CMakeLists.txt).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("executorch")

from codegen.paths import REPO_ROOT  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tests"))

MODEL = "cnn_stem"
N_CASES = int(os.environ.get("WEBGPU_FUZZ_CASES", "200"))
SEED = int(os.environ.get("WEBGPU_FUZZ_SEED", "7"))
JOBS = int(os.environ.get("WEBGPU_FUZZ_JOBS", str(os.cpu_count() or 2)))
TIMEOUT_S = 120
VH00_LEN = 30
SANITIZER_RE = re.compile(
    r"(ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|"
    r"UndefinedBehaviorSanitizer|AddressSanitizer)")
INTERESTING32 = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0xFFFF, 0x10000, 0x7FFFFFFF,
                 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE]
INTERESTING_IDS = [-1, -2, 2**31 - 1, -(2**31), 1 << 20]


def _runner() -> Path:
    path = Path(os.environ.get("WEBGPU_ASAN_PTE_RUNNER",
                               REPO_ROOT / "build-asan" / "webgpu_pte_runner"))
    if not path.is_file():
        pytest.fail(f"sanitizer runner {path} is missing: build it with "
                    "cmake -S . -B build-asan -DWEBGPU_SANITIZE=ON -DWEBGPU_EXECUTORCH=ON "
                    "(scripts/test.sh does), or set WEBGPU_ASAN_PTE_RUNNER")
    return path


def _runner_env(runner: Path) -> dict:
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    env_file = runner.parent / "sanitizer.env"
    if not env_file.is_file():
        pytest.fail(f"{env_file} is missing: is {runner} a sanitizer build (WEBGPU_SANITIZE=ON)?")
    for line in env_file.read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            env[k] = v
    return env


def _flatc() -> str:
    flatc = shutil.which("flatc")
    if not flatc:
        pytest.fail("flatc is missing (Debian: flatbuffers-compiler)")
    return flatc


def _schema() -> Path:
    import executorch
    return Path(list(executorch.__path__)[0]) / "backends/vulkan/serialization/schema.fbs"


# --- the .pte and its blob ---------------------------------------------------------------------
class Pte:
    """The exported program, with its VulkanBackend blob replaceable."""

    def __init__(self, data: bytes):
        from executorch.exir._serialize._program import deserialize_pte_binary
        self.data = data
        pte = deserialize_pte_binary(data)
        (self.blob,) = [d.data for d in pte.program.backend_delegate_data]
        # Where the blob sits in the file (delegate segment): byte mutations in place.
        self.blob_at = data.find(self.blob)
        assert self.blob_at > 0
        magic, length, self.fb_off, self.fb_size, self.bytes_off, self.bytes_size = struct.unpack(
            "<4x4sHIIIQ", self.blob[:VH00_LEN])
        assert magic == b"VH00" and length == VH00_LEN
        self.flatbuffer = self.blob[self.fb_off:self.fb_off + self.fb_size]
        self.constant_bytes = self.blob[self.bytes_off:self.bytes_off + self.bytes_size]

    def with_blob(self, blob: bytes) -> bytes:
        from executorch.exir._serialize._program import (deserialize_pte_binary,
                                                         serialize_pte_binary)
        pte = deserialize_pte_binary(self.data)
        pte.program.backend_delegate_data[0].data = blob
        return bytes(serialize_pte_binary(pte, extract_delegate_segments=True))

    def with_flatbuffer(self, fb: bytes) -> bytes:
        fb_off = 32
        bytes_off = (fb_off + len(fb) + 15) // 16 * 16
        header = struct.pack("<4s4sHIIIQ", b"\0" * 4, b"VH00", VH00_LEN, fb_off, len(fb),
                             bytes_off, len(self.constant_bytes))
        blob = header.ljust(fb_off, b"\0") + fb
        blob = blob.ljust(bytes_off, b"\0") + self.constant_bytes
        return self.with_blob(blob)


# --- mutators ----------------------------------------------------------------------------------
def _flip_bits(rng, pte: Pte):
    d = bytearray(pte.data)
    n = rng.choice([1, 1, 2, 4, 8])
    for _ in range(n):
        i = pte.blob_at + rng.randrange(len(pte.blob))
        d[i] ^= 1 << rng.randrange(8)
    return f"flip {n} bits", bytes(d)


def _set_bytes(rng, pte: Pte):
    d = bytearray(pte.data)
    i = pte.blob_at + rng.randrange(len(pte.blob))
    v = rng.choice([0, 0xFF, 0x7F, 0x80])
    d[i] = v
    return f"byte {i - pte.blob_at} = {v:#x}", bytes(d)


def _set_word(rng, pte: Pte):
    d = bytearray(pte.data)
    off = rng.randrange(0, len(pte.blob) - 4, 4)
    v = rng.choice(INTERESTING32 + [len(pte.blob), pte.fb_size, rng.getrandbits(32)])
    d[pte.blob_at + off:pte.blob_at + off + 4] = struct.pack("<I", v)
    return f"word {off} = {v:#x}", bytes(d)


def _header_field(rng, pte: Pte):
    d = bytearray(pte.data)
    fields = {"magic": (4, "4s"), "length": (8, "H"), "fb_offset": (10, "I"),
              "fb_size": (14, "I"), "bytes_offset": (18, "I"), "bytes_size": (22, "Q")}
    name = rng.choice(list(fields))
    off, fmt = fields[name]
    if fmt == "4s":
        v = rng.choice([b"VH01", b"\0\0\0\0", b"VK00"])
    elif fmt == "H":
        v = rng.choice([0, 29, 31, 0xFFFF])
    elif fmt == "I":
        v = rng.choice(INTERESTING32 + [len(pte.blob) - 1, len(pte.blob), pte.fb_size - 1,
                                        pte.fb_off + 1, 4, 8])
    else:
        v = rng.choice([1, 2**63, 2**64 - 1, len(pte.blob), 2**32])
    struct.pack_into("<" + fmt, d, pte.blob_at + off, v)
    return f"header {name} = {v!r}", bytes(d)


def _truncate_blob(rng, pte: Pte):
    n = rng.choice([0, 1, 8, VH00_LEN - 1, VH00_LEN, pte.fb_off + 4, pte.fb_off + 8,
                    rng.randrange(len(pte.blob))])
    return f"blob[:{n}]", pte.with_blob(pte.blob[:n])


def _truncate_flatbuffer(rng, pte: Pte):
    n = rng.randrange(pte.fb_size)
    return f"flatbuffer[:{n}]", pte.with_flatbuffer(pte.flatbuffer[:n])


def _truncate_pte(rng, pte: Pte):
    n = rng.randrange(len(pte.data))
    return f"pte[:{n}]", pte.data[:n]


BYTE_MUTATORS = [_flip_bits, _flip_bits, _set_bytes, _set_word, _set_word, _header_field,
                 _header_field, _truncate_blob, _truncate_flatbuffer, _truncate_pte]


# Structural mutators: edit the decoded graph (flatc --json), return a description.
def _tensors(g):
    return [i for i, v in enumerate(g["values"]) if v["value_type"] == "VkTensor"]


def _bad_id(rng, g):
    n = len(g["values"])
    return rng.choice(INTERESTING_IDS + [n, n + 1])


def _m_arg_out_of_range(rng, g):
    call = rng.choice(g["chain"])
    k = rng.randrange(len(call["args"]))
    call["args"][k] = v = _bad_id(rng, g)
    return f"{call['name']} arg {k} = value {v}"


def _m_arg_wrong_type(rng, g):
    call = rng.choice(g["chain"])
    k = rng.randrange(len(call["args"]))
    want = g["values"][call["args"][k]]["value_type"]
    others = [i for i, v in enumerate(g["values"]) if v["value_type"] != want]
    call["args"][k] = v = rng.choice(others)
    return f"{call['name']} arg {k} ({want}) = value {v} ({g['values'][v]['value_type']})"


def _m_arg_other_value(rng, g):
    call = rng.choice(g["chain"])
    k = rng.randrange(len(call["args"]))
    call["args"][k] = v = rng.randrange(len(g["values"]))
    return f"{call['name']} arg {k} = value {v}"


def _m_args_count(rng, g):
    call = rng.choice(g["chain"])
    how = rng.choice(["drop", "extra", "empty", "duplicate"])
    if how == "drop":
        call["args"].pop(rng.randrange(len(call["args"])))
    elif how == "extra":
        call["args"].append(rng.randrange(len(g["values"])))
    elif how == "empty":
        call["args"] = []
    else:
        call["args"] = call["args"] + call["args"]
    return f"{call['name']} args {how}"


def _m_op_name(rng, g):
    call = rng.choice(g["chain"])
    names = sorted({c["name"] for c in g["chain"]}) + [
        "aten.nonexistent.default", "", "et_vk.prepack.default", "aten.add.Tensor",
        "aten.relu.default", "aten.permute_copy.default"]
    old, call["name"] = call["name"], rng.choice(names)
    return f"op {old} -> {call['name']!r}"


def _m_io_ids(rng, g):
    key = rng.choice(["input_ids", "output_ids"])
    how = rng.choice(["out_of_range", "non_tensor", "other", "empty", "duplicate"])
    ids = g[key]
    if how == "out_of_range":
        ids[0] = rng.choice([len(g["values"]), 2**32 - 1, 2**31])
    elif how == "non_tensor":
        ids[0] = rng.choice([i for i, v in enumerate(g["values"]) if v["value_type"] != "VkTensor"])
    elif how == "other":
        ids[0] = rng.choice(_tensors(g))
    elif how == "empty":
        g[key] = []
    else:
        g[key] = ids + ids
    return f"{key} {how}"


def _valuelist(rng, g):
    lists = [i for i, v in enumerate(g["values"]) if v["value_type"] == "ValueList"]
    if lists and rng.random() < 0.7:
        return rng.choice(lists)
    i = rng.randrange(len(g["values"]))
    g["values"][i] = {"value_type": "ValueList", "value": {"items": [0]}}
    return i


def _m_valuelist(rng, g):
    i = _valuelist(rng, g)
    items = g["values"][i]["value"].setdefault("items", [])
    how = rng.choice(["self", "forward", "out_of_range", "cycle", "nested_self", "empty"])
    n = len(g["values"])
    if how == "self":
        items.append(i)
    elif how == "forward":
        items.append(rng.randrange(i, n))
    elif how == "out_of_range":
        items.append(_bad_id(rng, g))
    elif how == "cycle":
        # A -> B -> A, B added after A.
        g["values"].append({"value_type": "ValueList", "value": {"items": [i]}})
        items.append(n)
    elif how == "nested_self":
        g["values"].append({"value_type": "ValueList", "value": {"items": [n, i]}})
    else:
        g["values"][i]["value"]["items"] = []
    return f"ValueList {i} {how}"


def _m_value_type(rng, g):
    i = rng.randrange(len(g["values"]))
    old = g["values"][i]["value_type"]
    new = rng.choice([
        {"value_type": "Null", "value": {}},
        {"value_type": "Int", "value": {"int_val": rng.choice([0, -1, 2**63 - 1, -(2**63)])}},
        {"value_type": "Double", "value": {"double_val": rng.choice([0.5, -1e308, 1e308])}},
        {"value_type": "Bool", "value": {"bool_val": True}},
        {"value_type": "String", "value": {"string_val": "x"}},
        {"value_type": "String", "value": {}},
        {"value_type": "SymInt", "value": {"value": rng.choice([0, -1, 2**31 - 1])}},
        {"value_type": "IntList", "value": {"items": rng.choice([[], [-1], [2**62, 2**62], [0]])}},
        {"value_type": "IntList", "value": {}},
        {"value_type": "DoubleList", "value": {"items": [1.0, -2.0]}},
        {"value_type": "BoolList", "value": {"items": [True, False, True]}},
        {"value_type": "ValueList", "value": {}},
        {"value_type": "VkTensor", "value": {"datatype": "FLOAT32", "dims": [2, 3],
                                             "constant_id": -1, "mem_obj_id": -1}},
    ])
    g["values"][i] = new
    return f"value {i} {old} -> {new['value_type']}"


def _m_tensor(rng, g):
    i = rng.choice(_tensors(g))
    t = g["values"][i]["value"]
    how = rng.choice(["dims_huge", "dims_zero", "dims_rank", "dims_none", "dtype",
                      "constant_id", "constant_on_io", "mem_obj_id", "mem_obj_share",
                      "mem_obj_none"])
    if how == "dims_huge":
        t["dims"][rng.randrange(len(t["dims"]))] = rng.choice([2**32 - 1, 2**31, 1 << 20, 65537])
    elif how == "dims_zero":
        t["dims"][rng.randrange(len(t["dims"]))] = 0
    elif how == "dims_rank":
        t["dims"] = rng.choice([[], [1], [1] * 9, t["dims"] + [1], t["dims"][1:]])
    elif how == "dims_none":
        t.pop("dims", None)
    elif how == "dtype":
        t["datatype"] = rng.choice(["INT64", "INT32", "FLOAT16", "UINT8", "BOOL", "INT8",
                                    "FLOAT64", "UNSET", 99, -5])
    elif how == "constant_id":
        t["constant_id"] = rng.choice([len(g["constants"]), 2**31 - 1, 0, 1])
    elif how == "constant_on_io":
        t["constant_id"] = 0
    elif how == "mem_obj_id":
        t["mem_obj_id"] = rng.choice([0, 1, 2, 1000, 2**31 - 1, -2])
    elif how == "mem_obj_share":
        other = g["values"][rng.choice(_tensors(g))]["value"]
        t["mem_obj_id"] = other.get("mem_obj_id", 0) if other.get("mem_obj_id", -1) >= 0 else 0
    else:
        t["mem_obj_id"] = -1
    return f"tensor {i} {how}"


def _m_constant(rng, g):
    if not g["constants"]:
        g["constants"].append({"offset": 0, "length": 4})
    c = rng.choice(g["constants"])
    how = rng.choice(["offset", "length", "key", "no_key", "inline"])
    if how == "offset":
        c["offset"] = rng.choice([0, 1, 2**64 - 2, 2**63, 2**32])
    elif how == "length":
        c["length"] = rng.choice([0, 1, c.get("length", 0) - 1, c.get("length", 0) + 4,
                                  2**64 - 1, 2**63, 2**32])
    elif how == "key":
        c["named_key"] = rng.choice(["", "no-such-key", "x" * 300])
    elif how == "no_key":
        c.pop("named_key", None)
    else:
        c["offset"] = 0
    return f"constant {how}"


def _m_shaders(rng, g):
    g["shaders"] = [{"offset": 0, "length": 4} for _ in range(rng.choice([1, 2]))]
    return "custom shaders"


def _m_drop_values(rng, g):
    n = rng.randrange(len(g["values"]))
    g["values"] = g["values"][:n]
    return f"values[:{n}]"


def _m_drop_table(rng, g):
    key = rng.choice(["chain", "values", "input_ids", "output_ids", "constants"])
    g.pop(key, None)
    return f"no {key}"


def _m_duplicate_node(rng, g):
    i = rng.randrange(len(g["chain"]))
    g["chain"].insert(i, copy.deepcopy(g["chain"][i]))
    return f"node {i} twice"


STRUCT_MUTATORS = [_m_arg_out_of_range, _m_arg_out_of_range, _m_arg_wrong_type,
                   _m_arg_wrong_type, _m_arg_other_value, _m_args_count, _m_op_name, _m_io_ids,
                   _m_valuelist, _m_valuelist, _m_value_type, _m_value_type, _m_tensor, _m_tensor,
                   _m_tensor, _m_constant, _m_shaders, _m_drop_values, _m_drop_table,
                   _m_duplicate_node]


# --- generation --------------------------------------------------------------------------------
@dataclass
class Case:
    name: str
    what: str
    path: Path


def _decode(pte: Pte, work: Path) -> dict:
    (work / "vk.bin").write_bytes(pte.flatbuffer)
    subprocess.run([_flatc(), "--json", "--strict-json", "--raw-binary", "--defaults-json",
                    "-o", str(work), str(_schema()), "--", str(work / "vk.bin")], check=True)
    return json.loads((work / "vk.json").read_text())


def _generate(pte: Pte, n: int, seed: int, work: Path) -> list[Case]:
    rng = random.Random(seed)
    graph = _decode(pte, work)
    jdir = work / "json"
    jdir.mkdir()
    cases: list[Case] = []
    structural: list[tuple[str, str]] = []
    for k in range(n):
        name = f"m{k:04d}"
        if rng.random() < 0.5:
            mut = rng.choice(BYTE_MUTATORS)
            what, data = mut(rng, pte)
            path = work / f"{name}.pte"
            path.write_bytes(data)
            cases.append(Case(name, f"{mut.__name__[1:]}: {what}", path))
        else:
            g = copy.deepcopy(graph)
            muts = [rng.choice(STRUCT_MUTATORS) for _ in range(rng.choice([1, 1, 1, 2]))]
            parts = []
            for m in muts:
                try:
                    parts.append(m(rng, g))
                except (KeyError, IndexError, ValueError, TypeError):
                    parts.append(f"{m.__name__[3:]} n/a")  # an earlier mutation removed its target
            what = m.__name__[3:] + ": " + "; ".join(parts)
            (jdir / f"{name}.json").write_text(json.dumps(g))
            structural.append((name, what))
    # One flatc call for every structural mutant.
    fbdir = work / "fb"
    p = subprocess.run([_flatc(), "-b", "-o", str(fbdir), str(_schema())] +
                       [str(jdir / f"{name}.json") for name, _ in structural],
                       capture_output=True, text=True)
    assert p.returncode == 0, f"flatc -b failed on a generated mutant:\n{p.stderr}"
    for name, what in structural:
        path = work / f"{name}.pte"
        path.write_bytes(pte.with_flatbuffer((fbdir / f"{name}.bin").read_bytes()))
        cases.append(Case(name, f"graph {what}", path))
    return sorted(cases, key=lambda c: c.name)


# --- running -----------------------------------------------------------------------------------
@dataclass
class Outcome:
    case: Case
    rc: int | None
    stderr: str
    problem: str | None


def _run(runner: Path, env: dict, case: Case, out: Path) -> Outcome:
    cmd = [str(runner), str(case.path), "--seed", "1", "--iters", "1", "--warmup", "0",
           "--out", str(out)]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return Outcome(case, None, err, f"hang (no exit in {TIMEOUT_S} s)")
    problem = None
    if SANITIZER_RE.search(p.stderr):
        problem = "sanitizer report"
    elif p.returncode not in (0, 1):
        problem = f"exit status {p.returncode}"
    elif p.returncode == 1:
        msg = (out / "error.txt").read_text(errors="replace").strip() if (out / "error.txt").is_file() else ""
        if not msg or not p.stderr.strip():
            problem = "exit 1 without an error message"
    else:
        manifest = json.loads((out / "manifest.json").read_text())
        for o in manifest["outputs"]:
            if not (out / o["file"]).is_file():
                problem = f"exit 0 without output file {o['file']}"
    return Outcome(case, p.returncode, p.stderr, problem)


@pytest.fixture(scope="module")
def model_pte(tmp_path_factory):
    import e2e_models
    from codegen.et.export import export
    model, inputs = getattr(e2e_models, MODEL)()
    path = tmp_path_factory.mktemp("fuzz_model") / f"{MODEL}.pte"
    export(model, inputs, path)
    return path


def test_pte_fuzz_loader_never_crashes(model_pte, tmp_path, capsys):
    runner = _runner()
    env = _runner_env(runner)
    pte = Pte(model_pte.read_bytes())
    cases = _generate(pte, N_CASES, SEED, tmp_path)
    # The unmutated model first: it must run.
    baseline = _run(runner, env, Case("baseline", "unmutated", model_pte), tmp_path / "out-base")
    assert baseline.rc == 0 and baseline.problem is None, baseline.stderr[-4000:]

    with ThreadPoolExecutor(max(1, JOBS)) as pool:
        outcomes = list(pool.map(lambda c: _run(runner, env, c, tmp_path / f"out-{c.name}"), cases))

    errors = sum(o.rc == 1 and not o.problem for o in outcomes)
    runs = sum(o.rc == 0 and not o.problem for o in outcomes)
    bad = [o for o in outcomes if o.problem]
    summary = (f"pte fuzz ({MODEL}, seed {SEED}): {len(outcomes)} inputs, {errors} clean errors, "
               f"{runs} runs, {len(bad)} crashes/hangs/sanitizer reports")
    by_kind: dict[str, list[int]] = {}
    for o in outcomes:
        kind = o.case.what.split(":")[0]
        by_kind.setdefault(kind, [0, 0])[0 if o.rc == 1 else 1] += 1
    with capsys.disabled():
        print(f"\n{summary}\n  (errors, runs) by mutation: " +
              ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by_kind.items())))
    keep = os.environ.get("WEBGPU_FUZZ_KEEP")
    if keep and bad:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for o in bad:
            shutil.copy(o.case.path, Path(keep) / o.case.path.name)
            (Path(keep) / f"{o.case.name}.stderr").write_text(o.stderr)
    details = "\n\n".join(
        f"{o.case.name} [{o.case.what}]: {o.problem}\n  {runner} {o.case.path}\n"
        + "\n".join(o.stderr.strip().splitlines()[-25:]) for o in bad[:10])
    assert not bad, f"{summary}\n\n{details}"
