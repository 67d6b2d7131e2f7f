// opgen browser runner: the page half of codegen/executors/browser_device.py.
//
// Python drives this page through Playwright and awaits the functions on window.opgen;
// arguments and results cross as JSON, buffer bytes as base64. The page owns a GPUDevice
// per feature mask (usually one, unmasked), requested with the adapter's largest buffer
// and dispatch limits (so the shapes that run on wgpu run here too), timestamp-query and
// the optional features kernels may need (OPTIONAL_FEATURES) where the adapter offers
// them, less the masked ones (tests run feature routes' fallbacks on a masked device).
// Failures are thrown as Errors whose message carries WebGPU's own text, which
// Playwright hands to Python.
//
// Nothing op-specific lives here: kernels, bind group layouts, params bytes, grids and
// the copy kernel's text all come in the request (see run()).
"use strict";

// Limits raised from the spec defaults to what the adapter allows (as the delegate's
// runtime requests every adapter limit; the fused q, k, v GEMV binds 10 storage buffers).
const RAISED_LIMITS = ["maxStorageBufferBindingSize", "maxBufferSize",
                       "maxComputeWorkgroupsPerDimension", "maxStorageBuffersPerShaderStage"];
// Limits reported to Python (the raised ones, plus what bounds a workgroup).
const REPORTED_LIMITS = [...RAISED_LIMITS, "maxComputeInvocationsPerWorkgroup",
                         "maxComputeWorkgroupStorageSize"];

// The optional features of codegen/language/features.py, requested where offered.
const OPTIONAL_FEATURES = ["shader-f16", "subgroups"];

const devices = new Map();  // mask key -> Promise<{adapter, device}>, made on first use
let lostMessage = null;  // set once the device is lost: every later call fails with it
let uncaptured = null;  // a WebGPU error raised outside our error scopes, reported once
// (mask, kernel name, entry, overrides) -> {pipeline, groupLayout, code, layout}
const pipelines = new Map();

// masked: feature names the device is created without.
async function start(masked) {
  if (!navigator.gpu) {
    throw new Error("WebGPU is unavailable in this page: navigator.gpu is undefined " +
                    `(secure context: ${isSecureContext}); start Chromium with ` +
                    "--enable-unsafe-webgpu");
  }
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    throw new Error("WebGPU: requestAdapter() found no adapter (for the CPU adapter start " +
                    "Chromium with --use-webgpu-adapter=swiftshader)");
  }
  const requiredLimits = {};
  for (const name of RAISED_LIMITS) requiredLimits[name] = adapter.limits[name];
  const requiredFeatures = ["timestamp-query", ...OPTIONAL_FEATURES].filter(
    f => adapter.features.has(f) && !masked.includes(f));
  const device = await adapter.requestDevice({requiredLimits, requiredFeatures});
  device.lost.then(info => { lostMessage = `WebGPU device lost (${info.reason}): ${info.message}`; });
  device.addEventListener("uncapturederror", ev => {
    uncaptured ??= `WebGPU error outside a request: ${ev.error.message}`;
  });
  return {adapter, device};
}

function maskKey(masked) {
  return [...(masked ?? [])].sort().join(",");
}

// The device without the `masked` features, after reporting any failure that happened
// since the last call.
async function gpu(masked) {
  const key = maskKey(masked);
  if (!devices.has(key)) devices.set(key, start(key ? key.split(",") : []));
  const state = await devices.get(key);
  if (lostMessage) throw new Error(lostMessage);
  if (uncaptured) {
    const message = uncaptured;
    uncaptured = null;
    throw new Error(message);
  }
  return state;
}

// Runs the synchronous fn() inside validation and out-of-memory error scopes and resolves
// to {value, error} (error: WebGPU's message or null). Push, fn and pop happen in one
// synchronous stretch, so concurrent async callers cannot nest inside each other's scopes.
function scoped(device, fn) {
  device.pushErrorScope("out-of-memory");
  device.pushErrorScope("validation");
  let value, thrown = null;
  try {
    value = fn();
  } catch (e) {
    thrown = e;
  }
  const popped = Promise.all([device.popErrorScope(), device.popErrorScope()]);
  if (thrown) {
    popped.catch(() => {});
    throw thrown;
  }
  return popped.then(([validation, oom]) => ({value, error: (validation ?? oom)?.message ?? null}));
}

function fromBase64(text) {
  return Uint8Array.fromBase64(text);
}

function toBase64(bytes) {
  return bytes.toBase64();
}

// The harness's elementwise grid rule (codegen/plan.py elementwise_grid): 1-D, spilling
// into y past the per-dimension limit.
function elementwiseGrid(count, workgroupX, maxPerDim) {
  const groups = Math.max(1, Math.ceil(count / workgroupX));
  if (groups <= maxPerDim) return [groups, 1, 1];
  const rows = Math.ceil(groups / maxPerDim);
  if (rows > maxPerDim) {
    throw new Error(`elementwise grid: ${count} invocations exceed the 2-D dispatch limit`);
  }
  return [maxPerDim, rows, 1];
}

async function adapterInfo(masked) {
  const {adapter, device} = await gpu(masked);
  const info = adapter.info;
  const limits = {};
  for (const name of REPORTED_LIMITS) limits[name] = device.limits[name];
  return {vendor: info.vendor, architecture: info.architecture, device: info.device,
          description: info.description, features: [...device.features].sort(), limits};
}

// kernels: [{name, code, entry, overrides?}] -> [{name, messages, error}] where messages
// are getCompilationInfo()'s ({type, message, lineNum, linePos}) and error is the first
// validation error of module or pipeline creation (null when the kernel compiled).
async function compile(kernels) {
  const {device} = await gpu();
  return Promise.all(kernels.map(async k => {
    const made = await scoped(device, () => device.createShaderModule({code: k.code, label: k.name}));
    const info = await made.value.getCompilationInfo();
    const messages = info.messages.map(m => ({type: m.type, message: m.message,
                                              lineNum: m.lineNum, linePos: m.linePos}));
    let error = made.error;
    if (!error && !messages.some(m => m.type === "error")) {
      const piped = await scoped(device, () => device.createComputePipeline({
        label: k.name, layout: "auto",
        compute: {module: made.value, entryPoint: k.entry, constants: k.overrides ?? {}}}));
      error = piped.error;
    }
    return {name: k.name, messages, error};
  }));
}

const BINDING_TYPES = new Set(["uniform", "read-only-storage", "storage"]);

// The pipeline of a kernel with an explicit bind group layout (binding i = layout[i]), so
// a binding the kernel body does not read still binds. Cached by (name, entry, overrides),
// as the runtimes cache; a name reused with other text or another layout is an error.
// New keys go to `created`, so a request that fails can drop what it added unverified.
function kernelPipeline(device, k, created, mask) {
  const overrides = k.overrides ?? {};
  const key = JSON.stringify([mask, k.name, k.entry, Object.entries(overrides).sort()]);
  const layoutKey = k.layout.join(",");
  const cached = pipelines.get(key);
  if (cached) {
    if (cached.code !== k.code || cached.layout !== layoutKey) {
      throw new Error(`kernel ${k.name}: the page has a pipeline under this name with ` +
                      "other WGSL or another layout; kernel names must be unique");
    }
    return cached;
  }
  for (const type of k.layout) {
    if (!BINDING_TYPES.has(type)) throw new Error(`kernel ${k.name}: unknown binding type ${type}`);
  }
  const groupLayout = device.createBindGroupLayout({label: k.name, entries: k.layout.map(
    (type, i) => ({binding: i, visibility: GPUShaderStage.COMPUTE, buffer: {type}}))});
  const module = device.createShaderModule({code: k.code, label: k.name});
  const pipeline = device.createComputePipeline({
    label: k.name, layout: device.createPipelineLayout({bindGroupLayouts: [groupLayout]}),
    compute: {module, entryPoint: k.entry, constants: overrides}});
  const made = {pipeline, groupLayout, code: k.code, layout: layoutKey};
  pipelines.set(key, made);
  created.push(key);
  return made;
}

// A uniform buffer holding `bytes`, padded to whole 16-byte units.
function uniformBuffer(device, bytes, temporaries) {
  const buffer = device.createBuffer({size: Math.max(16, Math.ceil(bytes.length / 16) * 16),
                                      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST});
  temporaries.push(buffer);
  device.queue.writeBuffer(buffer, 0, bytes);
  return buffer;
}

// Everything run() creates before the first submit: buffers with their data, pipelines,
// and one {pipeline, group, grid} per step (pipeline null: an empty pass, a copy of 0 bytes).
function prepare(device, request, temporaries, created) {
  const mask = maskKey(request.masked);
  const kernels = new Map(request.kernels.map(k => [k.name, k]));
  const buffers = new Map();
  for (const b of request.buffers) {
    if (!(b.size >= 16 && b.size % 16 === 0)) {
      throw new Error(`buffer ${b.id}: size ${b.size} is not a whole number of 16-byte units (min 16)`);
    }
    if (buffers.has(b.id)) throw new Error(`buffer ${b.id} is declared twice`);
    const buffer = device.createBuffer({size: b.size, label: `buffer ${b.id}`, usage:
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST});
    temporaries.push(buffer);
    buffers.set(b.id, buffer);
    if (b.bytes || b.data) {
      const bytes = b.bytes ?? fromBase64(b.data);
      if (bytes.length > b.size) throw new Error(`buffer ${b.id}: ${bytes.length} bytes of data exceed its size ${b.size}`);
      const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);  // writes are whole words
      padded.set(bytes);
      device.queue.writeBuffer(buffer, 0, padded);
    }
  }
  const bufferOf = (id, where) => {
    if (!buffers.has(id)) throw new Error(`${where}: unknown buffer id ${id}`);
    return buffers.get(id);
  };
  // an absent optional tensor: its own buffer (so no two alias) of the binding's dummy size
  const dummy = (size) => {
    const buffer = device.createBuffer({size, usage: GPUBufferUsage.STORAGE, label: "dummy"});
    temporaries.push(buffer);
    return buffer;
  };
  const maxPerDim = device.limits.maxComputeWorkgroupsPerDimension;

  const dispatch = (k, params, storage, grid) => {
    const made = kernelPipeline(device, k, created, mask);
    const entries = [];
    if (params !== null) entries.push(uniformBuffer(device, params, temporaries));
    entries.push(...storage);
    const group = device.createBindGroup({label: k.name, layout: made.groupLayout, entries:
      entries.map((buffer, i) => ({binding: i, resource: {buffer}}))});
    return {pipeline: made.pipeline, group, grid};
  };

  const passes = request.steps.map((step, index) => {
    const where = `step ${index} (${step.kind})`;
    if (step.kind === "dispatch") {
      const k = kernels.get(step.kernel);
      if (!k) throw new Error(`${where}: unknown kernel ${step.kernel}`);
      const hasParams = step.params !== null && step.params !== undefined;
      if (hasParams !== (k.layout[0] === "uniform")) {
        throw new Error(`${where}: kernel ${k.name} ${hasParams ? "has no uniform binding 0 for " +
                        "params" : "declares a uniform binding 0 but the step has no params"}`);
      }
      const storage = step.bindings.map(
        (id, i) => id === null ? dummy(step.dummy_bytes[i]) : bufferOf(id, where));
      return dispatch(k, hasParams ? fromBase64(step.params) : null, storage, step.grid);
    }
    if (step.kind === "copy") {
      // As the runtime runs a Copy(...): copy_words over whole vec4s, [num_vec4, 0, 0, 0]
      // as params, nothing to do when source and destination are one buffer.
      const copy = request.copy_kernel;
      if (!copy) throw new Error(`${where}: the request has no copy_kernel`);
      const src = bufferOf(step.src, where), dst = bufferOf(step.dst, where);
      if (step.nbytes > src.size || step.nbytes > dst.size) {
        throw new Error(`${where}: ${step.nbytes} bytes exceed buffer ${step.src} ` +
                        `(${src.size} B) or buffer ${step.dst} (${dst.size} B)`);
      }
      const numVec4 = src === dst ? 0 : Math.ceil(step.nbytes / 16);
      if (numVec4 === 0) return {pipeline: null};
      const params = new Uint8Array(new Uint32Array([numVec4, 0, 0, 0]).buffer);
      const grid = elementwiseGrid(Math.ceil(numVec4 / copy.vec4_per_invocation),
                                   copy.workgroup_size, maxPerDim);
      return dispatch(copy, params, [src, dst], grid);
    }
    throw new Error(`${where}: unknown step kind`);
  });
  return {passes, buffers};
}

// One command buffer with the steps, `calls` times back to back, in one compute pass, as
// the native runtime records a graph; with a query set, timestamps at the pass's beginning
// (index 2*rep) and end (2*rep + 1).
function encodeOnce(device, steps, querySet, rep, calls) {
  const encoder = device.createCommandEncoder();
  const descriptor = querySet ? {timestampWrites: {querySet, beginningOfPassWriteIndex: 2 * rep,
                                                   endOfPassWriteIndex: 2 * rep + 1}} : {};
  const pass = encoder.beginComputePass(descriptor);
  for (let call = 0; call < calls; call++) {
    for (const step of steps) {
      if (step.pipeline) {
        pass.setPipeline(step.pipeline);
        pass.setBindGroup(0, step.group);
        pass.dispatchWorkgroups(...step.grid);
      }
    }
  }
  pass.end();
  return encoder.finish();
}

// request: {kernels: [{name, code, entry, overrides, layout}], buffers: [{id, size, data?
//   (base64) or url? (fetched)}], output_url? (each read buffer is POSTed to url/id),
//   steps: [{kind: "dispatch", kernel, params, bindings, grid} | {kind: "copy", src, dst,
//   nbytes}], read: [ids], timestamps?, repeat?, calls?, copy_kernel?: a kernel plus its
//   workgroup_size and vec4_per_invocation (required by copy steps), masked?: features
//   the device it runs on lacks (see gpu())}
// -> {outputs: {id: base64 of the whole buffer}, wall_ms: [per run], gpu_ms?: [per run]}.
// The steps run `repeat` times, one submit each, `calls` times back to back in each (one
// compute pass; each run's time covers them all); outputs are read after the last.
async function run(request) {
  const {device} = await gpu(request.masked);
  const repeat = request.repeat ?? 1;
  const calls = request.calls ?? 1;
  for (const [name, value] of [["repeat", repeat], ["calls", calls]]) {
    if (!(Number.isInteger(value) && value >= 1)) {
      throw new Error(`${name} must be a positive integer (got ${value})`);
    }
  }
  const timed = Boolean(request.timestamps) && device.features.has("timestamp-query") &&
                request.steps.length > 0;
  // large inputs travel as binary HTTP bodies (fetched from the Python side), not base64
  for (const b of request.buffers) {
    if (b.url) b.bytes = new Uint8Array(await (await fetch(b.url)).arrayBuffer());
  }
  const temporaries = [];
  const created = [];  // pipeline cache keys this request added
  let verified = false;  // its error scope came back clean
  try {
    // Everything is created and recorded inside one error scope, before anything runs.
    const prepared = await scoped(device, () => {
      const {passes, buffers} = prepare(device, request, temporaries, created);
      const querySet = timed ? device.createQuerySet({type: "timestamp", count: 2 * repeat}) : null;
      if (querySet) temporaries.push(querySet);
      const commands = Array.from({length: repeat}, (_, rep) => encodeOnce(device, passes, querySet, rep, calls));
      const encoder = device.createCommandEncoder();
      const staging = (size) => {
        const buffer = device.createBuffer({size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST});
        temporaries.push(buffer);
        return buffer;
      };
      const reads = request.read.map(id => {
        if (!buffers.has(id)) throw new Error(`read: unknown buffer id ${id}`);
        const src = buffers.get(id), dst = staging(src.size);
        encoder.copyBufferToBuffer(src, 0, dst, 0, src.size);
        return [id, dst];
      });
      let times = null;
      if (querySet) {
        const resolved = device.createBuffer({size: 16 * repeat,
          usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC});
        temporaries.push(resolved);
        times = staging(16 * repeat);
        encoder.resolveQuerySet(querySet, 0, 2 * repeat, resolved, 0);
        encoder.copyBufferToBuffer(resolved, 0, times, 0, 16 * repeat);
      }
      return {commands, readback: encoder.finish(), reads, times};
    });
    if (prepared.error) throw new Error(`WebGPU validation error: ${prepared.error}`);
    verified = true;
    const {commands, readback, reads, times} = prepared.value;

    const submit = async (command) => {
      const submitted = scoped(device, () => device.queue.submit([command]));
      await device.queue.onSubmittedWorkDone();
      const {error} = await submitted;
      if (error) throw new Error(`WebGPU error on submit: ${error}`);
    };
    const wall_ms = [];
    for (const command of commands) {
      const t0 = performance.now();
      await submit(command);
      wall_ms.push(performance.now() - t0);
    }
    await submit(readback);
    const mapped = [...reads.map(([, b]) => b), ...(times ? [times] : [])];
    await Promise.all(mapped.map(b => b.mapAsync(GPUMapMode.READ)));
    const outputs = {};
    for (const [id, b] of reads) {
      const bytes = new Uint8Array(b.getMappedRange());
      if (request.output_url) {  // a binary HTTP body to the Python side, not base64
        await fetch(`${request.output_url}/${id}`, {method: "POST", body: bytes});
        outputs[id] = null;
      } else {
        outputs[id] = toBase64(bytes);
      }
    }
    const result = {outputs, wall_ms};
    if (times) {
      const ticks = new BigInt64Array(times.getMappedRange());
      result.gpu_ms = Array.from({length: repeat}, (_, rep) => Number(ticks[2 * rep + 1] - ticks[2 * rep]) / 1e6);
    }
    return result;
  } finally {
    for (const t of temporaries) t.destroy();
    // a pipeline whose creation was not seen to succeed is not kept: a later run would
    // only report "invalid pipeline" instead of the shader's own error
    if (!verified) for (const key of created) pipelines.delete(key);
  }
}

window.opgen = {adapterInfo, compile, run, elementwiseGrid};
