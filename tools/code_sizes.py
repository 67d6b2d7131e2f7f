"""Module and function sizes of the toolkit (`python tools/code_sizes.py [root]`).

Prints every module's line count, the functions longer than the limit, the
function-local imports, and the totals, against MODULE_LIMIT and FUNCTION_LIMIT below."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MODULE_LIMIT = 400
FUNCTION_LIMIT = 60


def main(root: str = "codegen") -> None:
    files = sorted(p for p in Path(root).rglob("*.py") if "specs" not in p.parts)
    long_functions, local_imports, total = [], 0, 0
    for path in files:
        text = path.read_text()
        lines = text.count("\n")
        total += lines
        mark = "  <- over %d" % MODULE_LIMIT if lines > MODULE_LIMIT else ""
        print(f"{lines:6d} {path}{mark}")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > FUNCTION_LIMIT:
                    long_functions.append((size, f"{path}:{node.lineno} {node.name}"))
                local_imports += sum(
                    isinstance(n, (ast.Import, ast.ImportFrom)) and
                    any(a.name.startswith("codegen") for a in n.names) or
                    isinstance(n, ast.ImportFrom) and (n.module or "").startswith("codegen")
                    for n in ast.walk(node))
    print(f"{total:6d} total in {len(files)} modules; largest "
          f"{max(p.read_text().count(chr(10)) for p in files)} lines")
    print(f"functions over {FUNCTION_LIMIT} lines: {len(long_functions)}")
    for size, where in sorted(long_functions, reverse=True):
        print(f"  {size:4d} {where}")
    print(f"function-local imports of codegen modules: {local_imports}")


if __name__ == "__main__":
    main(*sys.argv[1:])
