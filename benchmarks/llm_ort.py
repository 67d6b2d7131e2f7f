"""The LLM benchmark of llm_bench.py on ONNX Runtime's WebGPU EP: the same Llama-3.2-1B
shape with random weights, 4-bit group-32 weights (MatMulNBits) and GroupQueryAttention,
as onnxruntime-genai's model builder writes it, timed as ours (prefill 128 and 512
tokens, decode at context 128 and 1024, each call with its logits readback, greedy).

    BUILDER_PY benchmarks/llm_ort.py pack DIR [--variants fp16,fp32] [--tiny]   # here
    python3 benchmarks/llm_ort.py run DIR OUT [--provider cpu]                   # there
    python3 benchmarks/llm_ort.py report OUT/llm_ort.json

pack (BUILDER_PY: a Python with onnxruntime-genai's builder, transformers>=5 and torch;
see docs/performance.md) writes a Hugging Face LlamaForCausalLM folder of that shape
(random float16 weights, std 0.02 as transformers initializes them, untied embedding and
output projection, a stand-in tokenizer), then runs
`python -m onnxruntime_genai.models.builder -p int4 -e webgpu --extra_options
block_size=32 op_types_to_quantize=MatMul/Gather prune_lm_head=true`: every linear and
the output projection as MatMulNBits, the embedding as GatherBlockQuantized (both
symmetric 4-bit, one scale per 32 weights), logits of the last token only; VARIANTS
lists the activation types. The quantized weights are random anyway, so they do not travel: every
packed-weight and scale initializer of the external data file is overwritten by bytes
drawn from a seeded generator (seeded_constants.seeded_bytes: uniform bytes; scales
uniform between the smallest and largest scale the builder computed), cut out of the file,
and drawn again there by seeded_weights.restore_model (SHA-256 checked).

run (numpy and onnxruntime-webgpu) rebuilds the data files and runs a greedy loop on a
plain InferenceSession with IO binding, the KV cache on the device (Decoder), each call
uploading its token ids and attention mask and reading its logits back; then checks the
cached decode against one prefill of the whole sequence. Writes OUT/llm_ort.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_bench import (CONTEXT as MAX_LEN, GROUP, NEW_TOKENS, PeakMemory,  # noqa: E402
                       prompt_ids, timed_runs)

LLAMA_1B = {"hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
            "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64,
            "vocab_size": 128256, "rms_norm_eps": 1e-5, "max_position_embeddings": 8192,
            "rope_theta": 500000.0, "tie_word_embeddings": False,
            "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0,
                             "high_freq_factor": 4.0,
                             "original_max_position_embeddings": 8192},
            "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu"}
TINY = dict(LLAMA_1B, hidden_size=256, intermediate_size=512, num_hidden_layers=2,
            num_attention_heads=8, num_key_value_heads=2, head_dim=32, vocab_size=1024)
# the builder's options per model variant: "fp16" is its WebGPU default (float16
# activations and KV cache, MatMulNBits accuracy_level 4: prefill's activations quantized
# to int8 for DP4A); "fp32" is closest to ours (float32 activations and KV cache,
# weight-only 4-bit with float32 arithmetic: accuracy_level 1)
VARIANTS = {"fp16": [], "fp32": ["use_webgpu_fp32=true", "accuracy_level=1"]}


def model_name(params: dict, variant: str) -> str:
    size = "tiny" if params["hidden_size"] != LLAMA_1B["hidden_size"] else "llama1b"
    return f"{size}_{params['num_hidden_layers']}l_q4g{GROUP}_{variant}"


# --- here: the Hugging Face folder, the builder, the stripped data file -----------------
def hf_folder(params: dict, folder: Path) -> Path:
    """A LlamaForCausalLM of `params` with transformers' random initialization, saved in
    float16, and a stand-in tokenizer (the builder copies one; the benchmark feeds ids)."""
    import torch
    from tokenizers import Tokenizer, models
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    config = LlamaConfig(**params)
    torch.manual_seed(0)
    model = LlamaForCausalLM._from_config(config, dtype=torch.float16)
    model.save_pretrained(folder)
    del model
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                            eos_token="</s>").save_pretrained(folder)
    return folder


def build_onnx(hf: Path, out: Path, variant: str, cache: Path) -> Path:
    options = [f"block_size={GROUP}", "op_types_to_quantize=MatMul/Gather",
               "prune_lm_head=true"] + VARIANTS[variant]
    cmd = [sys.executable, "-m", "onnxruntime_genai.models.builder", "-i", str(hf),
           "-o", str(out), "-p", "int4", "-e", "webgpu", "-c", str(cache),
           "--extra_options", *options]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    return out / "model.onnx"


def pack(folder: Path, params: dict, variants: list[str], work: Path) -> None:
    import seeded_weights
    from seeded_constants import reseed_onnx_data

    folder.mkdir(parents=True, exist_ok=True)
    hf = work / model_name(params, "hf")
    for variant in variants:
        name = model_name(params, variant)
        built = work / name
        t0 = time.time()
        if not (built / "model.onnx").exists():
            if not (hf / "config.json").exists():
                hf_folder(params, hf)
                print(f"{hf}: Hugging Face folder in {time.time() - t0:.0f} s", flush=True)
            build_onnx(hf, built, variant, work / "cache")
            print(f"{built}: built in {time.time() - t0:.0f} s", flush=True)
        weights, files, summary = reseed_onnx_data(built / "model.onnx")
        dest = folder / name
        dest.mkdir(exist_ok=True)
        for f in built.iterdir():  # model.onnx, the stripped data, genai_config.json
            if f.is_file() and not f.name.startswith("tokenizer"):
                shutil.copy2(f, dest / f.name)
        shutil.rmtree(built)  # the reseeded file is rebuilt from the pack when needed
        seeded_weights.write_manifest(dest, name, weights, files)
        info = {"model": name, "variant": variant, "params": params, "group_size": GROUP,
                "builder_options": VARIANTS[variant], **summary}
        (dest / "info.json").write_text(json.dumps(info, indent=1))
        size = sum(f.stat().st_size for f in dest.iterdir())
        print(f"{dest}: {size / 1e6:.2f} MB, {len(weights)} reseeded initializers "
              f"({summary['reseeded_bytes'] / 1e6:.1f} MB)", flush=True)
    shutil.rmtree(hf, ignore_errors=True)
    shutil.rmtree(work / "cache", ignore_errors=True)


# --- there: the greedy loop on a plain InferenceSession -----------------------------------
PROVIDERS = {"webgpu": "WebGpuExecutionProvider", "cpu": "CPUExecutionProvider"}


class Decoder:
    """One model's session and IO binding. The KV cache stays on the session's device: as
    onnxruntime-genai runs these models (past_present_share_buffer), each layer's past and
    present are one [1, kv_heads, MAX_LEN, head_dim] device buffer that GroupQueryAttention
    writes in place ("shared"); where the Python API cannot allocate a device buffer, the
    present outputs are bound to the device and fed back as the next call's past
    ("grow"). Token ids and the attention mask are uploaded, the logits read back, by
    every call."""

    def __init__(self, model: Path, provider: str, kv: str = "shared"):
        import onnxruntime as ort

        self.ort, self.provider = ort, provider
        so = ort.SessionOptions()
        for prefix in ("ep.webgpuexecutionprovider.", "ep.WebGpuExecutionProvider."):
            so.add_session_config_entry(prefix + "validationMode", "basic")  # as genai's
        t0 = time.perf_counter()
        self.session = ort.InferenceSession(str(model), so, providers=[PROVIDERS[provider]])
        self.load_s = time.perf_counter() - t0
        if self.session.get_providers()[0] != PROVIDERS[provider]:
            raise SystemExit(f"ORT runs {model} on {self.session.get_providers()[0]}, not "
                             f"{PROVIDERS[provider]} (no adapter?)")
        inputs = {i.name: i for i in self.session.get_inputs()}
        self.past = sorted(n for n in inputs if n.startswith("past_key_values."))
        first = inputs[self.past[0]]
        self.kv_heads = first.shape[1]  # head_dim is symbolic in the graph: from info.json
        self.dtype = {"tensor(float16)": "float16", "tensor(float)": "float32"}[first.type]
        self.device = "webgpu" if provider == "webgpu" else "cpu"
        self.mode = kv
        self.buffers = None

    def reset(self, head_dim: int) -> None:
        """A fresh binding at position 0 (the shared buffers are reused: positions past the
        mask's length are never read)."""
        import numpy as np

        self.binding = self.session.io_binding()
        self.binding.bind_output("logits", "cpu")  # each call reads its logits back
        shape = [1, self.kv_heads, MAX_LEN, head_dim]
        if self.mode == "shared" and self.buffers is None:
            try:
                self.buffers = {n: self.ort.OrtValue.ortvalue_from_shape_and_type(
                    shape, np.dtype(self.dtype), self.device, 0) for n in self.past}
            except Exception as e:  # noqa: BLE001 - any refusal: the other binding
                print(f"  no {self.device} buffer from the Python API ({e}); KV cache "
                      f"bound as outputs and fed back", flush=True)
                self.mode = "grow"
        for n in self.past:
            present = n.replace("past_key_values.", "present.")
            if self.mode == "shared":
                self.binding.bind_ortvalue_input(n, self.buffers[n])
                self.binding.bind_ortvalue_output(present, self.buffers[n])
            else:
                empty = np.zeros([1, self.kv_heads, 0, head_dim], self.dtype)
                self.binding.bind_ortvalue_input(n, self.ort.OrtValue.ortvalue_from_numpy(empty))
                self.binding.bind_output(present, self.device)
        self.length = 0

    def step(self, ids: list[int]):
        """One call on `ids` after the cached positions; returns (last logits, seconds)."""
        import numpy as np

        total = self.length + len(ids)
        if total > MAX_LEN:
            raise SystemExit(f"llm_ort: context {total} exceeds the KV buffers ({MAX_LEN})")
        self.binding.bind_cpu_input("input_ids", np.array([ids], dtype=np.int64))
        self.binding.bind_cpu_input("attention_mask", np.ones([1, total], dtype=np.int64))
        t0 = time.perf_counter()
        self.session.run_with_iobinding(self.binding)
        outputs = self.binding.get_outputs()
        logits = outputs[0].numpy()
        seconds = time.perf_counter() - t0
        if self.mode == "grow":
            names = ["logits"] + [n.replace("past_key_values.", "present.") for n in self.past]
            for name, value in zip(names, outputs):  # in the order they were bound
                if name.startswith("present."):
                    self.binding.bind_ortvalue_input(name.replace("present.", "past_key_values."), value)
                    self.binding.bind_output(name, self.device)
        self.length = total
        last = logits.reshape(-1, logits.shape[-1])[-1].astype(np.float32)
        if not np.isfinite(last).all():
            raise SystemExit(f"llm_ort: non-finite logits at position {total}")
        return last, seconds


def generate(dec: Decoder, head_dim: int, vocab: int, prompt: int, new: int,
             warmup: int) -> dict:
    ids = prompt_ids(prompt, vocab)
    for _ in range(warmup):  # an untimed prefill of the same prompt
        dec.reset(head_dim)
        dec.step(ids)
    dec.reset(head_dim)
    logits, prefill_s = dec.step(ids)
    tokens, decode_ms = [int(logits.argmax())], []
    for _ in range(new - 1):
        logits, s = dec.step([tokens[-1]])
        decode_ms.append(1e3 * s)
        tokens.append(int(logits.argmax()))
    m = {"prompt_tokens": prompt, "new_tokens": new, "prefill_ms": 1e3 * prefill_s,
         "prefill_tok_s": prompt / prefill_s, "decode_ms": decode_ms,
         "decode_median_ms": statistics.median(decode_ms) if decode_ms else None,
         "tokens": tokens, "last_logits": logits}
    print(f"prompt {prompt:5d}, {new:3d} new: prefill {m['prefill_tok_s']:9.1f} tok/s"
          + (f", decode median {1000 / m['decode_median_ms']:8.1f} tok/s" if decode_ms else ""),
          flush=True)
    return m


def check_cache(dec: Decoder, head_dim: int, vocab: int, run: dict) -> float:
    """The last decode step's logits against one prefill of the prompt and the generated
    tokens: the largest difference relative to the largest logit (the KV cache kept
    across calls must give what the whole sequence gives)."""
    import numpy as np

    ids = prompt_ids(run["prompt_tokens"], vocab) + run["tokens"][:-1]
    dec.reset(head_dim)
    want, _ = dec.step(ids)
    got = run["last_logits"]
    return float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))


def run(folder: Path, out: Path, provider: str, new: int, kv: str) -> None:
    import seeded_weights

    out.mkdir(parents=True, exist_ok=True)
    results = {"provider": PROVIDERS[provider], "models": {}}
    import onnxruntime as ort

    results["onnxruntime"] = ort.__version__
    with PeakMemory() as memory:
        for model_dir in sorted(d for d in folder.iterdir() if (d / "info.json").exists()):
            info = json.loads((model_dir / "info.json").read_text())
            restored = Path("/tmp/llm_ort") / info["model"]
            t0 = time.time()
            seeded_weights.restore_model(model_dir, info["model"], restored)
            for f in model_dir.iterdir():
                if f.suffix in (".onnx", ".json"):
                    shutil.copy2(f, restored / f.name)
            print(f"== {info['model']}: restored in {time.time() - t0:.0f} s", flush=True)
            p = info["params"]
            head_dim, vocab = p["head_dim"], p["vocab_size"]
            dec = Decoder(restored / "model.onnx", provider, kv)
            try:  # one call on the shared buffers, or the other binding
                generate(dec, head_dim, vocab, 8, 2, 0)
            except Exception as e:  # noqa: BLE001
                if dec.mode != "shared":
                    raise
                print(f"  a call on shared KV buffers failed ({e}); KV cache bound as "
                      f"outputs and fed back", flush=True)
                dec.mode, dec.buffers = "grow", None
            runs = {}
            for key, prompt, n, warmup in timed_runs(new):
                runs[key] = generate(dec, head_dim, vocab, prompt, n, warmup)
            error = check_cache(dec, head_dim, vocab, runs["prefill128_decode_ctx128"])
            print(f"  KV cache check: last decode logits vs. one prefill: {error:.3g} of the "
                  f"largest logit; KV binding {dec.mode}; session load {dec.load_s:.1f} s",
                  flush=True)
            for m in runs.values():
                m.pop("last_logits")
            results["models"][info["model"]] = {
                "info": info, "runs": runs, "kv_mode": dec.mode, "cache_check": error,
                "load_s": dec.load_s}
            del dec
            shutil.rmtree(restored)
    results["peak_gpu_mib"] = memory.peak
    (out / "llm_ort.json").write_text(json.dumps(results, indent=1))
    report(out / "llm_ort.json")


def report(path: Path) -> None:
    r = json.loads(path.read_text())
    print(f"ORT {r['onnxruntime']} {r['provider']}; peak GPU memory (all models, "
          f"nvidia-smi) {r.get('peak_gpu_mib')} MiB")
    print(f"{'model':28s} {'decode@128':>11s} {'decode@1024':>12s} {'prefill128':>11s} "
          f"{'prefill512':>11s} {'prefill1024':>12s}  (tok/s)")
    for name, m in r["models"].items():
        runs = m["runs"]
        dec = [1000 / runs[k]["decode_median_ms"] for k in
               ("prefill128_decode_ctx128", "decode_ctx1024")]
        pre = [runs[k]["prefill_tok_s"] for k in
               ("prefill128_decode_ctx128", "prefill512", "decode_ctx1024")]
        print(f"{name:28s} {dec[0]:11.1f} {dec[1]:12.1f} {pre[0]:11.1f} {pre[1]:11.1f} "
              f"{pre[2]:12.1f}  (KV {m['kv_mode']}, cache check {m['cache_check']:.2g})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack")
    p.add_argument("folder", type=Path)
    p.add_argument("--layers", type=int, default=LLAMA_1B["num_hidden_layers"])
    p.add_argument("--variants", default="fp16,fp32",
                   help=f"comma-separated, of {sorted(VARIANTS)}")
    p.add_argument("--tiny", action="store_true", help="dim 256, vocab 1024 (a CPU check)")
    p.add_argument("--work", type=Path, default=Path("/tmp/opgen_llm_ort"))
    r = sub.add_parser("run")
    r.add_argument("folder", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("--provider", default="webgpu", choices=("webgpu", "cpu"))
    r.add_argument("--new-tokens", type=int, default=NEW_TOKENS)
    r.add_argument("--kv", default="shared", choices=("shared", "grow"),
                   help="KV cache binding (Decoder); shared falls back to grow")
    s = sub.add_parser("report")
    s.add_argument("json", type=Path)
    args = parser.parse_args()
    if args.command == "pack":
        params = dict(TINY if args.tiny else LLAMA_1B, num_hidden_layers=args.layers)
        pack(args.folder, params, args.variants.split(","), args.work)
    elif args.command == "run":
        run(args.folder, args.out, args.provider, args.new_tokens, args.kv)
    else:
        report(args.json)


if __name__ == "__main__":
    main()
