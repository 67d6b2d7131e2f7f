"""The browser executor's device layer: our WGSL run by a real browser's WebGPU.

Why a browser: the Python harness runs the shaders through wgpu (naga); browsers compile
the same text with their own WGSL compiler (Chromium: Dawn + Tint), which is stricter in
places. This layer runs kernels in Chromium so such differences show up in our tests.

How: Playwright's sync API launches the SYSTEM Chromium (Debian's `chromium` package;
Playwright's own browser downloads are never used) headless, with WebGPU on SwiftShader,
the CPU Vulkan that Chromium bundles. It loads browser_page/index.html from
http://127.0.0.1 -- a secure context, which WebGPU requires -- answered from this
process by request interception (no socket, no port; the network stays closed), and
awaits the functions runner.js puts on `window.opgen`. Requests and results are JSON,
bytes travel as base64. This module only moves requests; what a kernel binds, its params
bytes and its grid are the caller's (the page knows no op).

One browser per process: `device()` starts it on first use and closes it at exit.
Playwright's sync API must stay on the thread that started it.
"""

from __future__ import annotations

import atexit
import base64
import functools
import os
import time
from pathlib import Path
from urllib.parse import urlparse

from codegen.executors.wgpu_device import (COPY_KERNEL, COPY_VEC4_PER_INVOCATION,
                                           COPY_WORKGROUP_SIZE)
from codegen.spec.loader import REPO_ROOT

PLAYWRIGHT_PIN = "playwright==1.65.2"  # keep in step with pyproject.toml's test extra
CHROMIUM = os.environ.get("OPGEN_CHROMIUM", "/usr/bin/chromium")
PAGE_DIR = Path(__file__).resolve().parent / "browser_page"
ORIGIN = "http://127.0.0.1"
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
# Bytes reach the page as base64 inside Playwright's protocol messages, whose cost grows
# faster than the size (measured: 16 MiB in about 5 s, 32 MiB about 14 s; 48 MiB crashed
# the page); reading back is linear (about 20 MiB/s). Above this, fail before sending.
MAX_UPLOAD_BYTES = 16 << 20


class BrowserError(RuntimeError):
    """The browser (or WebGPU inside it) failed; the message is the browser's own."""


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


def _b64(data) -> str | None:
    if data is None or isinstance(data, str):
        return data
    return base64.b64encode(bytes(data)).decode("ascii")


class BrowserDevice:
    """A headless Chromium holding one WebGPU device (see the module note)."""

    def __init__(self, executable: str = CHROMIUM):
        if not Path(executable).exists():
            raise BrowserError(f"Chromium not found at {executable}: {INSTALL_CHROMIUM}")
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError:
            raise BrowserError(f"the Python package playwright is missing: pip install "
                               f"'{PLAYWRIGHT_PIN}' (the test extra pins it)") from None
        self._error_type = Error
        self._page_errors: list[str] = []
        t0 = time.perf_counter()
        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(
                executable_path=executable, headless=True, args=FLAGS)
            self._page = self._browser.new_page()
            self._page.on("pageerror", lambda exc: self._page_errors.append(str(exc)))
            self._page.on("crash", lambda _: self._page_errors.append(
                "the page crashed (Chromium's renderer died, e.g. out of memory)"))
            self._page.route("**/*", self._serve)
            self._page.goto(f"{ORIGIN}/index.html")
            self._info = self.call("adapterInfo")
        except Error as e:
            self.close()
            raise BrowserError(f"Chromium at {executable} did not start with WebGPU: "
                               f"{e.message} ({INSTALL_CHROMIUM})") from None
        except BrowserError as e:
            self.close()
            raise BrowserError(f"{e} (is {executable} Debian's chromium? {INSTALL_CHROMIUM})") \
                from None
        self.start_s = time.perf_counter() - t0  # launch + page + device, for the docs' timings

    @staticmethod
    def _serve(route) -> None:
        """Answers the page's requests from PAGE_DIR; anything else is a 404."""
        url = urlparse(route.request.url)
        path = PAGE_DIR / url.path.lstrip("/")
        if f"{url.scheme}://{url.netloc}" == ORIGIN and path.parent == PAGE_DIR and path.is_file():
            route.fulfill(path=str(path))
        else:
            route.fulfill(status=404, body="")

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

    def adapter_info(self) -> dict:
        """vendor, architecture, device, description, features, limits (of the device)."""
        return self._info

    def compile(self, kernels: list[dict]) -> list[dict]:
        """kernels: [{name, code, entry, overrides?}] -> one {name, messages, error} each:
        messages from getCompilationInfo() ({type, message, lineNum, linePos}), error the
        first validation error of shader module or pipeline creation (None when it built)."""
        return self.call("compile", [dict(k, entry=k.get("entry", "main")) for k in kernels])

    def run(self, request: dict) -> RunResult:
        """Runs `request` (runner.js run(); `data` and `params` may be bytes) and returns
        the `read` buffers. A copy step gets the runtime's copy kernel added here."""
        upload = sum(len(b.get("data") or b"") for b in request["buffers"]) + \
            sum(len(s.get("params") or b"") for s in request["steps"] if s["kind"] == "dispatch")
        if upload > MAX_UPLOAD_BYTES:
            raise BrowserError(f"run: the request carries {upload / 2**20:.1f} MiB of data, more "
                               f"than the {MAX_UPLOAD_BYTES >> 20} MiB the page takes (base64 "
                               f"through Playwright grows faster than linearly): use smaller "
                               f"inputs")
        request = dict(request)
        request["buffers"] = [dict(b, data=_b64(b.get("data"))) for b in request["buffers"]]
        request["steps"] = [dict(s, params=_b64(s.get("params"))) if s["kind"] == "dispatch"
                            else s for s in request["steps"]]
        if any(s["kind"] == "copy" for s in request["steps"]):
            request["copy_kernel"] = copy_kernel()
        result = self.call("run", request)
        outputs = {i: base64.b64decode(result["outputs"][str(i)]) for i in request["read"]}
        return RunResult(outputs, result["wall_ms"], result.get("gpu_ms"))

    def close(self) -> None:
        browser, self._browser = getattr(self, "_browser", None), None
        playwright, self._playwright = getattr(self, "_playwright", None), None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


@functools.lru_cache(maxsize=1)
def device() -> BrowserDevice:
    """The process's browser, started on first use and closed at exit."""
    dev = BrowserDevice()
    atexit.register(dev.close)
    return dev
