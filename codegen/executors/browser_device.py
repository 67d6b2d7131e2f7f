"""The browser executor's device layer: our WGSL run by a real browser's WebGPU.

Why a browser: the Python harness runs the shaders through wgpu (naga); browsers compile
the same text with their own WGSL compiler (Chromium: Dawn + Tint), which is stricter in
places. This layer runs kernels in Chromium so such differences show up in our tests.

How: Playwright's sync API launches the SYSTEM Chromium (Debian's `chromium` package;
Playwright's own browser downloads are never used) headless, with WebGPU on SwiftShader,
the CPU Vulkan that Chromium bundles. It loads browser_page/index.html from a loopback
HTTP server of this process (http://127.0.0.1:<ephemeral port>: a secure context, which
WebGPU requires) and awaits the functions runner.js puts on `window.opgen`. Requests and
results are JSON; buffer contents travel as binary bodies over that server (the page
fetches `/in/<id>` and posts `/out/<id>`): as base64 inside Playwright's messages their
cost grew faster than their size (16 MiB took 5 s, 48 MiB crashed the page), and through
Playwright's request interception 64 MiB each way took 72 s. This module only moves requests; what a kernel binds, its params
bytes and its grid are the caller's (the page knows no op).

One browser per process: `device()` starts it on first use and closes it at exit.
Playwright's sync API must stay on the thread that started it.
"""

from __future__ import annotations

import atexit
import base64
import functools
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from codegen.executors.wgpu_device import (COPY_KERNEL, COPY_VEC4_PER_INVOCATION,
                                           COPY_WORKGROUP_SIZE)
from codegen.paths import REPO_ROOT

PLAYWRIGHT_PIN = "playwright==1.65.2"  # keep in step with pyproject.toml's test extra
CHROMIUM = os.environ.get("OPGEN_CHROMIUM", "/usr/bin/chromium")
PAGE_DIR = Path(__file__).resolve().parent / "browser_page"
FLAGS = [
    "--headless=new",
    "--no-sandbox",  # we run as root, where Chromium's sandbox refuses to start
    "--enable-unsafe-webgpu",  # WebGPU is off in Linux Chromium: no adapter without it
    # the CPU adapter bundled with Chromium, also on a machine with a GPU: one adapter
    # everywhere, the one CI has
    "--use-webgpu-adapter=swiftshader",
    "--enable-webgpu-developer-features",  # full adapter info (else description is empty)
    # nothing may reach out: the machines have no network beyond package registries
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run",
]
INSTALL_CHROMIUM = "install it with `apt-get install -y chromium` (scripts/setup.sh does)"
# The most buffer bytes one request may carry (inputs and outputs together); above this,
# fail before sending rather than exhaust the renderer.
MAX_UPLOAD_BYTES = 256 << 20


class BrowserError(RuntimeError):
    """The browser (or WebGPU inside it) failed; the message is the browser's own."""


def playwright_error_type(executable: str) -> type:
    """playwright's Error, once Chromium at `executable` and the playwright package are
    there (else a BrowserError saying how to install the missing one)."""
    if not Path(executable).exists():
        raise BrowserError(f"Chromium not found at {executable}: {INSTALL_CHROMIUM}")
    try:
        from playwright.sync_api import Error
    except ImportError:
        raise BrowserError(f"the Python package playwright is missing: pip install "
                           f"'{PLAYWRIGHT_PIN}' (the test extra pins it)") from None
    return Error


class RunResult(dict):
    """Buffer id -> the buffer's whole contents (bytes), read after the last run, plus
    the time of each run: `wall_ms` (submit to work done, as the page sees it) and
    `gpu_ms` (timestamp queries; None when not asked for or not offered)."""

    def __init__(self, outputs: dict, wall_ms: list[float], gpu_ms: list[float] | None):
        super().__init__(outputs)
        self.wall_ms = wall_ms
        self.gpu_ms = gpu_ms


def copy_kernel() -> dict:
    """The runtime's flat-copy kernel as the page runs it for a copy step, with the
    geometry the harness's grid uses (see harness.Node._encode_flat_copy)."""
    return {"name": "copy_words", "code": (REPO_ROOT / COPY_KERNEL).read_text(), "entry": "main",
            "overrides": {}, "layout": ["uniform", "read-only-storage", "storage"],
            "workgroup_size": COPY_WORKGROUP_SIZE,
            "vec4_per_invocation": COPY_VEC4_PER_INVOCATION}


class _Server:
    """The loopback HTTP server the page talks to: its files, the input bodies it fetches
    (`inputs`: path -> bytes) and the output bodies it posts (`outputs`: id -> bytes)."""

    def __init__(self):
        self.inputs: dict[str, bytes] = {}
        self.outputs: dict[int, bytes] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = PAGE_DIR / self.path.lstrip("/")
                if self.path in server.inputs:
                    self._reply(200, server.inputs[self.path], "application/octet-stream")
                elif path.parent == PAGE_DIR and path.is_file():
                    kind = "text/html" if path.suffix == ".html" else "text/javascript"
                    self._reply(200, path.read_bytes(), kind)
                else:
                    self._reply(404, b"", "text/plain")

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path.startswith("/out/"):
                    server.outputs[int(self.path.rsplit("/", 1)[1])] = body
                    self._reply(204, b"", "text/plain")
                else:
                    self._reply(404, b"", "text/plain")

            def _reply(self, status: int, body: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:  # quiet: errors reach the page's fetch
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _b64(data) -> str | None:
    if data is None or isinstance(data, str):
        return data
    return base64.b64encode(bytes(data)).decode("ascii")


class BrowserDevice:
    """A headless Chromium holding one WebGPU device (see the module note)."""

    def __init__(self, executable: str = CHROMIUM):
        self._error_type = playwright_error_type(executable)
        self._page_errors: list[str] = []
        self._masked_info: dict[tuple, dict] = {}
        self._server = _Server()
        t0 = time.perf_counter()
        self._page = None
        try:
            self._page = chromium(executable).new_page()
            self._page.on("pageerror", lambda exc: self._page_errors.append(str(exc)))
            self._page.on("crash", lambda _: self._page_errors.append(
                "the page crashed (Chromium's renderer died, e.g. out of memory)"))
            self._page.goto(f"{self._server.origin}/index.html")
            self._info = self.call("adapterInfo")
        except self._error_type as e:
            self.close()
            raise BrowserError(f"Chromium at {executable} did not start with WebGPU: "
                               f"{e.message} ({INSTALL_CHROMIUM})") from None
        except BrowserError as e:
            self.close()
            raise BrowserError(f"{e} (is {executable} Debian's chromium? {INSTALL_CHROMIUM})") \
                from None
        self.start_s = time.perf_counter() - t0  # launch + page + device, for the docs' timings

    def call(self, name: str, *args):
        """Awaits window.opgen[name](...args); a JS exception or page error -> BrowserError."""
        if self._page_errors:
            raise BrowserError("page error: " + "; ".join(self._page_errors))
        try:
            result = self._page.evaluate(
                "([name, args]) => { if (!window.opgen) throw new Error('runner.js did not load "
                "(window.opgen is undefined)'); return window.opgen[name](...args); }",
                [name, list(args)])
        except self._error_type as e:
            # keep the browser's message: drop Playwright's prefix and the JS stack lines
            message = "\n".join(line for line in e.message.splitlines()
                                if not line.lstrip().startswith("at "))
            message = message.removeprefix("Page.evaluate: ").removeprefix("Error: ")
            errors = "; page errors: " + "; ".join(self._page_errors) if self._page_errors else ""
            raise BrowserError(f"{name}: {message}{errors}") from None
        return result

    def adapter_info(self, masked: frozenset[str] = frozenset()) -> dict:
        """vendor, architecture, device, description, features, limits (of the device;
        `masked`: of the page's device created without those features)."""
        if masked:
            key = tuple(sorted(masked))
            if key not in self._masked_info:
                self._masked_info[key] = self.call("adapterInfo", list(key))
            return self._masked_info[key]
        return self._info

    def compile(self, kernels: list[dict]) -> list[dict]:
        """kernels: [{name, code, entry, overrides?}] -> one {name, messages, error} each:
        messages from getCompilationInfo() ({type, message, lineNum, linePos}), error the
        first validation error of shader module or pipeline creation (None when it built)."""
        return self.call("compile", [dict(k, entry=k.get("entry", "main")) for k in kernels])

    def run(self, request: dict) -> RunResult:
        """Runs `request` (runner.js run(); `data` and `params` may be bytes) and returns
        the `read` buffers. A copy step gets the runtime's copy kernel added here."""
        sizes = {b["id"]: b["size"] for b in request["buffers"]}
        carried = sum(len(b.get("data") or b"") for b in request["buffers"]) + \
            sum(sizes.get(i, 0) for i in request["read"])
        if carried > MAX_UPLOAD_BYTES:
            raise BrowserError(f"run: the request carries {carried / 2**20:.1f} MiB of buffer "
                               f"data, more than the {MAX_UPLOAD_BYTES >> 20} MiB a run may "
                               f"move: use smaller inputs")
        request = dict(request, output_url="/out")
        server = self._server
        server.inputs, server.outputs = {}, {}
        buffers = []
        for b in request["buffers"]:
            data = b.get("data")
            b = {k: v for k, v in b.items() if k != "data"}
            if data:  # the page fetches it as a binary body
                b["url"] = f"/in/{b['id']}"
                server.inputs[b["url"]] = bytes(data)
            buffers.append(b)
        request["buffers"] = buffers
        request["steps"] = [dict(s, params=_b64(s.get("params"))) if s["kind"] == "dispatch"
                            else s for s in request["steps"]]
        if any(s["kind"] == "copy" for s in request["steps"]):
            request["copy_kernel"] = copy_kernel()
        try:
            result = self.call("run", request)
            outputs = {i: server.outputs[i] for i in request["read"]}
        finally:
            server.inputs, server.outputs = {}, {}
        return RunResult(outputs, result["wall_ms"], result.get("gpu_ms"))

    def close(self) -> None:
        page, self._page = getattr(self, "_page", None), None
        server, self._server = getattr(self, "_server", None), None
        try:
            if page is not None and not page.is_closed():
                page.close()
        finally:
            if server is not None:
                server.close()


_PLAYWRIGHT: dict = {}  # "playwright": the started sync API; executable -> its browser


def chromium(executable: str = CHROMIUM):
    """The process's Chromium at `executable`, headless with FLAGS: started on first use,
    closed at exit. Playwright's sync API runs once per thread, so every page of the
    process (this device's, the WebAssembly executor's, a site's) is a tab of it. A launch
    failure raises Playwright's Error."""
    if executable not in _PLAYWRIGHT:
        from playwright.sync_api import sync_playwright

        if "playwright" not in _PLAYWRIGHT:
            _PLAYWRIGHT["playwright"] = sync_playwright().start()
            atexit.register(_stop_playwright)
        _PLAYWRIGHT[executable] = _PLAYWRIGHT["playwright"].chromium.launch(
            executable_path=executable, headless=True, args=FLAGS)
    return _PLAYWRIGHT[executable]


def _stop_playwright() -> None:
    playwright = _PLAYWRIGHT.pop("playwright", None)
    try:
        for browser in _PLAYWRIGHT.values():
            browser.close()
    finally:
        _PLAYWRIGHT.clear()
        if playwright is not None:
            playwright.stop()


@functools.lru_cache(maxsize=1)
def device() -> BrowserDevice:
    """The process's browser, started on first use and closed at exit."""
    dev = BrowserDevice()
    atexit.register(dev.close)
    return dev
