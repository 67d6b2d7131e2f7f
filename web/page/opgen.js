// The page's API over the WebAssembly delegate (webgpu_delegate.{js,wasm}: the native
// runtime and the generated handlers, web/README.md). No Python anywhere: a page loads
// a model `opgen web` wrote (<name>.json + <name>.bin), runs it and reads its outputs.
//
//   const rt = await OpgenRuntime.create('webgpu_delegate.js');
//   const device = await rt.openDevice();            // adapter, features, limits: device.info
//   const model = await rt.loadModel(device, 'models/hf_vit');
//   const {outputs, ms} = await model.run([{data: Float32Array, dims: [1, 3, 32, 32]}]);
//
// Every call into the module is queued behind the previous one: the runtime's waits unwind
// the wasm stack to the event loop (Asyncify), and only one call may be in flight. A
// failure rejects with an Error whose message is the runtime's own (the native message).
'use strict';

(function(global) {

const DTYPES = {
  float32: Float32Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array,
  bool: Uint8Array, float16: Uint16Array, int8: Int8Array,
};

class OpgenError extends Error {}

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.onload = resolve;
    s.onerror = () => reject(new OpgenError(`${url} did not load`));
    document.head.appendChild(s);
  });
}

class OpgenRuntime {
  // Loads the emscripten module (webgpu_delegate.js and the .wasm beside it).
  static async create(url = 'webgpu_delegate.js', options = {}) {
    if (typeof createOpgenModule === 'undefined') await loadScript(url);
    const t0 = performance.now();
    const module = await createOpgenModule({
      opgenSources: [],
      print: options.print || ((t) => console.log(t)),
      printErr: options.printErr || ((t) => console.warn(t)),
      locateFile: (path) => new URL(path, new URL(url, location.href)).href,
    });
    return new OpgenRuntime(module, performance.now() - t0);
  }

  constructor(module, instantiateMs) {
    this.module = module;
    this.instantiateMs = instantiateMs;
    this.queue = Promise.resolve();
  }

  // Runs fn(module) after every earlier call has finished.
  serial(fn) {
    const run = this.queue.then(() => fn(this.module));
    this.queue = run.catch(() => {});
    return run;
  }

  // One call of an exported C function; strings and bytes are copied into wasm memory
  // for the call ('string' arguments: UTF-8, NUL-terminated; 'bytes': a Uint8Array).
  async invoke(name, returns, args) {
    const m = this.module;
    const held = [];
    const types = [], values = [];
    for (const a of args) {
      if (typeof a === 'string') {
        const bytes = new TextEncoder().encode(a);
        const p = m._malloc(bytes.length + 1);
        m.HEAPU8.set(bytes, p);
        m.HEAPU8[p + bytes.length] = 0;
        held.push(p);
        types.push('number');
        values.push(p);
      } else if (a instanceof Uint8Array) {
        const p = m._malloc(Math.max(a.length, 1));
        m.HEAPU8.set(a, p);
        held.push(p);
        types.push('number');
        values.push(p);
      } else {
        types.push('number');
        values.push(a);
      }
    }
    try {
      return await m.ccall(name, returns, types, values, {async: true});
    } finally {
      held.forEach((p) => m._free(p));
    }
  }

  // The binding's waits that returned to the event loop (WebGPU promises), and their time;
  // since `since` when given.
  waits(since = null) {
    const s = Object.assign({sleeps: 0, sleep_ms: 0}, this.module.wgpujsStats || {});
    return since ? {sleeps: s.sleeps - since.sleeps, sleep_ms: s.sleep_ms - since.sleep_ms} : s;
  }

  lastError() {
    return this.module.ccall('opgen_last_error', 'string', [], []);
  }

  // A status or id below 0, or a null string: the runtime's error.
  check(result) {
    if (result === null || (typeof result === 'number' && result < 0)) {
      throw new OpgenError(this.lastError());
    }
    return result;
  }

  // A device with every optional feature the adapter offers but `masked` (WebGPU names).
  openDevice(masked = []) {
    return this.serial(async () => {
      const t0 = performance.now();
      const id = this.check(await this.invoke('opgen_device_open', 'number', [masked.join(',')]));
      const info = JSON.parse(this.check(await this.invoke('opgen_device_info', 'string', [id])));
      return new OpgenDevice(this, id, info, performance.now() - t0);
    });
  }

  // A model `opgen web` wrote: `base` + '.json' (its spec) and `base` + '.bin' (its bytes).
  async loadModel(device, base) {
    const t0 = performance.now();
    const meta = await fetchOk(base + '.json').then((r) => r.json());
    const file = await fetchOk(base + '.bin').then((r) => r.arrayBuffer());
    const fetchMs = performance.now() - t0;
    return this.loadModelBytes(device, meta, file, fetchMs);
  }

  loadModelBytes(device, meta, file, fetchMs = 0) {
    return this.serial(async (m) => {
      const t0 = performance.now(), w0 = this.waits();
      const source = m.opgenSources.length;
      m.opgenSources.push(file);
      const blob = new Uint8Array(file, meta.blob.offset, meta.blob.size);
      const header = parseHeader(blob);
      const spec = {
        named: meta.named,
        segment: header.segmentOk ? [meta.blob.offset + header.bytesOffset, header.bytesSize] : [0, 0],
        inputs: meta.inputs.map((t) => ({dtype: t.dtype, dims: t.dims})),
        outputs: meta.outputs.map((t) => ({dtype: t.dtype, dims: t.dims})),
      };
      // only the header and the flatbuffer enter wasm memory; the weights stay in `file`
      const inMemory = blob.subarray(0, header.prefix);
      let id;
      try {
        id = this.check(await this.invoke('opgen_model_load', 'number',
                                          [device.id, source, inMemory, meta.blob.size, JSON.stringify(spec)]));
      } catch (e) {
        m.opgenSources[source] = null;
        throw e;
      }
      const info = JSON.parse(this.check(await this.invoke('opgen_model_info', 'string', [id])));
      const waits = this.waits(w0);
      return new OpgenModel(this, id, meta, info, {fetch_ms: fetchMs, load_ms: performance.now() - t0,
                                                   waits: waits.sleeps, wait_ms: waits.sleep_ms,
                                                   wasm_bytes: inMemory.length, file_bytes: file.byteLength});
    });
  }

  // One op case as webgpu_op_runner runs it: `files` (path -> Uint8Array or string) are
  // written under a fresh folder of the module's memory file system, `case.json` among
  // them. Returns {manifest, outputs: {file: Uint8Array}} or {error: message}.
  runCase(device, files) {
    return this.serial(async (m) => {
      const dir = `/case${++caseCount}`;
      m.FS.mkdir(dir);
      try {
        for (const [name, data] of Object.entries(files)) m.FS.writeFile(`${dir}/${name}`, data);
        const status = await this.invoke('opgen_run_case', 'number', [device.id, `${dir}/case.json`, `${dir}/out`]);
        if (status !== 0) return {error: this.lastError()};
        const manifest = JSON.parse(m.FS.readFile(`${dir}/out/manifest.json`, {encoding: 'utf8'}));
        const outputs = {};
        for (const run of manifest.runs) {
          for (const o of run.outputs) outputs[o.file] = m.FS.readFile(`${dir}/out/${o.file}`);
        }
        return {manifest, outputs};
      } finally {
        removeTree(m.FS, dir);
      }
    });
  }

  targets() {
    return this.serial(async () => (await this.invoke('opgen_targets', 'string', [])).split('\n').filter(Boolean));
  }
}

let caseCount = 0;

function removeTree(FS, path) {
  let stat;
  try { stat = FS.stat(path); } catch (e) { return; }
  if (FS.isDir(stat.mode)) {
    for (const name of FS.readdir(path)) {
      if (name !== '.' && name !== '..') removeTree(FS, `${path}/${name}`);
    }
    FS.rmdir(path);
  } else {
    FS.unlink(path);
  }
}

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) throw new OpgenError(`${url}: HTTP ${r.status}`);
  return r;
}

// The VH00 header's regions (cpp_runtime/executorch/vk_graph.cpp parse_header checks them
// again): how much of the blob wasm memory needs (header + flatbuffer), and the constant
// segment, which stays in the ArrayBuffer.
function parseHeader(blob) {
  const HEADER = 30;
  if (blob.length < HEADER) return {prefix: blob.length, segmentOk: false};
  const v = new DataView(blob.buffer, blob.byteOffset, blob.length);
  const fbOffset = v.getUint32(10, true), fbSize = v.getUint32(14, true);
  const bytesOffset = v.getUint32(18, true), bytesSize = Number(v.getBigUint64(22, true));
  const prefix = Math.min(blob.length, Math.max(HEADER, fbOffset + fbSize));
  const segmentOk = bytesOffset <= blob.length && bytesSize <= blob.length - bytesOffset;
  return {prefix, bytesOffset, bytesSize, segmentOk};
}

class OpgenDevice {
  constructor(runtime, id, info, openMs) {
    Object.assign(this, {runtime, id, info, openMs});
  }
  close() {
    return this.runtime.serial(async () => this.runtime.check(await this.runtime.invoke('opgen_device_close', 'number', [this.id])));
  }
}

class OpgenModel {
  constructor(runtime, id, meta, info, times) {
    Object.assign(this, {runtime, id, meta, info, times});
  }

  // inputs: [{data: TypedArray of the input's dtype, dims}] -> {outputs: [{dtype, dims,
  // data}], ms: wall time of the call (inputs in, execute, outputs read back), stats}
  run(inputs) {
    const rt = this.runtime;
    return rt.serial(async (m) => {
      if (inputs.length !== this.meta.inputs.length) {
        throw new OpgenError(`the model takes ${this.meta.inputs.length} inputs, ${inputs.length} given`);
      }
      const t0 = performance.now();
      for (let i = 0; i < inputs.length; ++i) {
        const x = inputs[i], dims = x.dims || this.meta.inputs[i].dims;
        const bytes = new Uint8Array(x.data.buffer, x.data.byteOffset, x.data.byteLength);
        const d = m._malloc(4 * Math.max(dims.length, 1));
        m.HEAP32.set(dims, d >> 2);
        try {
          rt.check(await rt.invoke('opgen_model_set_input', 'number', [this.id, i, d, dims.length, bytes, bytes.length]));
        } finally {
          m._free(d);
        }
      }
      const result = JSON.parse(rt.check(await rt.invoke('opgen_model_run', 'string', [this.id])));
      const outputs = result.outputs.map((o) => {
        const bytes = m.HEAPU8.slice(o.data, o.data + o.bytes);
        return {dtype: o.dtype, dims: o.dims, data: new (DTYPES[o.dtype] || Uint8Array)(bytes.buffer)};
      });
      return {outputs, ms: performance.now() - t0, stats: result.stats};
    });
  }

  free() {
    return this.runtime.serial(async () => this.runtime.check(await this.runtime.invoke('opgen_model_free', 'number', [this.id])));
  }
}

// Inputs for a model: random normal floats (Box-Muller, seeded) or integers in [0, high).
function randomInputs(meta, seed = 1, high = 2) {
  let s = seed >>> 0 || 1;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) + 0.5) / 4294967296;
  return meta.inputs.map((t) => {
    const n = t.dims.reduce((a, b) => a * b, 1);
    const Type = DTYPES[t.dtype] || Float32Array;
    const data = new Type(n);
    for (let i = 0; i < n; ++i) {
      if (t.dtype === 'float32') {
        data[i] = Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
      } else {
        const v = Math.floor(next() * (t.high || high));
        data[i] = Type === BigInt64Array ? BigInt(v) : v;
      }
    }
    return {data, dims: t.dims};
  });
}

global.OpgenRuntime = OpgenRuntime;
global.OpgenError = OpgenError;
global.opgenRandomInputs = randomInputs;
global.OPGEN_DTYPES = DTYPES;
})(window);
