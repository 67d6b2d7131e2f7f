"""A headless Chromium page over static files: how Python drives the WebAssembly delegate
(the browser executor's op cases, the tests of `opgen web`'s sites). Nothing here
computes: the page runs the wasm module, Python only starts it, asks and reads answers.

The browser is the process's one Chromium (browser_device.chromium: Debian's chromium,
WebGPU on SwiftShader, the planned-steps executor's flags); each Page is a tab of it. Files
are served by a loopback HTTP server of this process from the folders given (the first
that holds a path wins).
"""

from __future__ import annotations

import functools
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from codegen.executors.browser_device import (CHROMIUM, BrowserError, chromium,
                                              playwright_error_type)

TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
         ".json": "application/json", ".bin": "application/octet-stream"}


def _handler(folders: tuple[Path, ...], store: dict[str, bytes]):
    class Handler(SimpleHTTPRequestHandler):
        extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

        def do_GET(self) -> None:
            if self.path in store:  # bytes Python put there (Page.put)
                self._reply(200, store[self.path])
            else:
                super().do_GET()

        def do_POST(self) -> None:  # bytes the page sends back (Page.take)
            store[self.path] = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self._reply(204, b"")

        def _reply(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def translate_path(self, path: str) -> str:
            first = Path(super().translate_path(path))  # under folders[0], the base directory
            rel = first.relative_to(folders[0])
            for folder in folders:
                if (folder / rel).exists():
                    return str(folder / rel)
            return str(first)

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, *args) -> None:
            pass

    return functools.partial(Handler, directory=str(folders[0]))


class Page:
    """Chromium showing `page` (a path under the folders); `evaluate` awaits JS."""

    def __init__(self, folders: list[Path], page: str, ready: str | None = None,
                 timeout_s: float = 600, executable: str = CHROMIUM):
        self._error_type = playwright_error_type(executable)
        self.errors: list[str] = []
        self.console: list[str] = []
        self.timeout_ms = timeout_s * 1e3
        self._store: dict[str, bytes] = {}
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(
            tuple(Path(f).resolve() for f in folders), self._store))
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._page = None
        t0 = time.perf_counter()
        try:
            self._page = chromium(executable).new_page()
            self._page.set_default_timeout(self.timeout_ms)
            self._page.on("pageerror", lambda exc: self.errors.append(str(exc)))
            self._page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
            self._page.on("crash", lambda _: self.errors.append(
                "the page crashed (Chromium's renderer died, e.g. out of memory)"))
            self._page.goto(f"{self.origin}/{page}")
            if ready:
                self.evaluate(ready)
        except Exception:
            self.close()
            raise
        self.start_s = time.perf_counter() - t0

    def evaluate(self, expression: str, *args):
        """Awaits `expression` (a JS function of the args, or an expression) in the page;
        a JS exception or a page error becomes BrowserError with the browser's message."""
        if self.errors:
            raise BrowserError("page error: " + "; ".join(self.errors))
        try:
            return self._page.evaluate(expression, list(args) if args else None)
        except self._error_type as e:
            message = "\n".join(line for line in e.message.splitlines()
                                if not line.lstrip().startswith("at "))
            message = message.removeprefix("Page.evaluate: ").removeprefix("Error: ")
            # opgen.js's own error class carries the runtime's message as it is
            message = message.removeprefix("OpgenError: ")
            raise BrowserError(message + ("; page errors: " + "; ".join(self.errors)
                                          if self.errors else "")) from None

    def put(self, path: str, data: bytes) -> None:
        """Serves `data` at `path` (from /): binary bodies, not JSON through Playwright,
        whose messages grow slow with size (docs/browser.md)."""
        self._store[path] = data

    def take(self, path: str) -> bytes | None:
        """What the page POSTed to `path` (removed from the store), or None."""
        return self._store.pop(path, None)

    def clear(self, prefix: str) -> None:
        for path in [p for p in self._store if p.startswith(prefix)]:
            del self._store[path]

    def close(self) -> None:
        page, self._page = self._page, None
        try:
            if page is not None and not page.is_closed():
                page.close()
        finally:
            self._httpd.shutdown()
            self._httpd.server_close()


@functools.lru_cache(maxsize=1)
def runner_page() -> Page:
    """The process's page for op cases (web/page/runner.html over the built module),
    started on first use and closed at exit."""
    import atexit

    from codegen.web.site import PAGE_DIR, module_dir

    page = Page([PAGE_DIR, module_dir()], "runner.html")
    atexit.register(page.close)
    return page
