// The page's half of web_model.cpp's constants: bytes of a model file the page fetched,
// kept as a JavaScript ArrayBuffer (Module.opgenSources[source]), written straight into a
// GPU buffer (weights never pass through wasm memory) or, for the few int64 constants the
// loader narrows on the host, copied into it.
mergeInto(LibraryManager.library, {
  $OpgenSources: function(source) {
    var buffer = (Module['opgenSources'] || [])[source];
    if (!buffer) throw new Error('opgen: model file ' + source + ' is not loaded');
    return buffer;
  },
  opgen_js_write_constant__deps: ['$WGPUJS', '$OpgenSources'],
  opgen_js_write_constant: function(source, queue, buffer, offset, length) {
    var file = OpgenSources(source);
    offset = Number(offset);
    length = Number(length);
    if (offset + length > file.byteLength)
      throw new Error('opgen: constant bytes [' + offset + ', +' + length + ') beyond the ' +
                      file.byteLength + '-byte model file');
    var gpuQueue = WGPUJS.get(queue), gpuBuffer = WGPUJS.get(buffer);
    var whole = length - length % 4;  // queue writes move whole 4-byte units
    if (whole) gpuQueue.writeBuffer(gpuBuffer, 0, file, offset, whole);
    if (whole < length) {
      var tail = new Uint8Array(4);
      tail.set(new Uint8Array(file, offset + whole, length - whole));
      gpuQueue.writeBuffer(gpuBuffer, whole, tail);
    }
  },
  opgen_js_read_bytes__deps: ['$OpgenSources'],
  opgen_js_read_bytes: function(source, offset, length, into) {
    var file = OpgenSources(source);
    HEAPU8.set(new Uint8Array(file, Number(offset), Number(length)), into);
  },
});
