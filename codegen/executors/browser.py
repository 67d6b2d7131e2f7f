"""The browser executor: the generated C++ handlers, compiled to WebAssembly with their
runtime (web/, the browser build), run by Chromium's WebGPU (Dawn + Tint on SwiftShader).

A bound call becomes the native runner's JSON case (`codegen.executors.native`), and the
WebAssembly build of that same runner (tools/op_runner/runner.cpp) runs it in the page
(web/page/runner.html) on a device the page's module opened through the project's
webgpu.h binding. So the handler's guards, routes, grids and params are the native ones,
and a negative case's message is the one the C++ throws, character for character.
Planned steps in Python (`codegen.executors.browser_planned`) remain for the benchmarks.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

from codegen.executors.call import BoundCall
from codegen.executors.interface import Executor
from codegen.executors.native import NativeNode
from codegen.graph.errors import OpError


_RUNS = itertools.count()


def page():
    from codegen.web.page import runner_page

    return runner_page()


@functools.lru_cache(maxsize=None)
def device_info(masked: frozenset[str] = frozenset()) -> dict:
    """The page's device (describe, adapter, features, limits) without `masked` features."""
    return page().evaluate("([m]) => opgenCases.deviceInfo(m)", sorted(masked))


class BrowserNode(NativeNode):
    """One op run by the WebAssembly op runner in the page; building runs it once, `run(live)`
    replays the build and every resize so far (as NativeNode)."""

    def _run_runner(self, case: Path, out_dir: Path, masked: frozenset[str]) -> dict:
        # the case's files travel as binary HTTP bodies (a spec case moves up to 64 MiB)
        run = f"/case/{next(_RUNS)}"
        the_page, files = page(), {}
        for f in case.parent.iterdir():
            if f.is_file():
                the_page.put(f"{run}/in/{f.name}", f.read_bytes())
                files[f.name] = f"{run}/in/{f.name}"
        try:
            result = the_page.evaluate("([files, out, m]) => opgenCases.runCase(files, out, m)",
                                       files, f"{run}/out", sorted(masked))
            if "error" in result:
                raise OpError(result["error"] or "the WebAssembly op runner failed without a message")
            out_dir.mkdir(parents=True, exist_ok=True)
            for r in result["manifest"]["runs"]:
                for o in r["outputs"]:
                    data = the_page.take(f"{run}/out/{o['file']}")
                    if data is None:
                        raise RuntimeError(f"the page did not send {o['file']} back")
                    (out_dir / o["file"]).write_bytes(data)
            (out_dir / "manifest.json").write_text(json.dumps(result["manifest"]))
            return result["manifest"]["runs"][-1]
        finally:
            the_page.clear(run + "/")


class Browser(Executor):
    name = "browser"

    def build(self, call: BoundCall, force: tuple[str, ...] = ()) -> BrowserNode:
        if force:
            raise ValueError(f"the browser runs the routes the generated C++ picks; it cannot "
                             f"force {', '.join(force)} (opgen bench --browser can)")
        return BrowserNode(call, self.masked)

    def features(self) -> frozenset[str]:
        from codegen.language.features import FEATURES

        return frozenset(f for f in device_info(self.masked)["features"] if f in FEATURES)


EXECUTOR = Browser()


# torch.ops-style entry points (see Executor.build_call and Executor.call)
build = EXECUTOR.build_call
call = EXECUTOR.call
