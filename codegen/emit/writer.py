"""All-or-nothing writes of the generator's outputs.

New contents are staged beside their targets (`<file>.opgen-new`), then a journal
listing them is put in place with one atomic rename, then each staged file is renamed
over its target and the journal removed. A failure before the journal exists leaves
every file old (the staged files are cleaned up on the next run); a failure after it is
rolled forward by the next run. A lock serializes concurrent generators.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path

class WriteError(Exception):
    """A file could not be written; says whether anything changed and how to finish."""


STAGED_SUFFIX = ".opgen-new"
JOURNAL = ".opgen-journal"
LOCK = ".opgen.lock"


@contextlib.contextmanager
def locked(root: Path):
    with open(root / LOCK, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _fsync_write(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _apply(root: Path, journal: dict) -> None:
    for rel in journal["replace"]:
        staged = root / (rel + STAGED_SUFFIX)
        if staged.exists():
            os.replace(staged, root / rel)
    for rel in journal["delete"]:
        (root / rel).unlink(missing_ok=True)
    (root / JOURNAL).unlink()


def recover(root: Path, scan_dirs: list[Path]) -> None:
    """Finishes an interrupted commit, or discards an interrupted staging."""
    journal = root / JOURNAL
    if journal.exists():
        _apply(root, json.loads(journal.read_text()))
    for d in scan_dirs:
        for staged in d.rglob("*" + STAGED_SUFFIX):
            if staged.is_file():  # what commit stages is always a file
                staged.unlink()


def commit(root: Path, files: dict[str, str], delete: list[str], scan_dirs: list[Path]) -> list[str]:
    """Writes `files` (relative path -> text) and deletes `delete`, all or nothing.
    Returns the paths that changed."""
    with locked(root):
        recover(root, scan_dirs)
        changed = []
        try:
            for rel, text in sorted(files.items()):
                target = root / rel
                data = text.encode()
                if target.is_file() and target.read_bytes() == data:
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                _fsync_write(root / (rel + STAGED_SUFFIX), data)
                changed.append(rel)
        except BaseException as e:
            recover(root, scan_dirs)
            if isinstance(e, OSError):
                raise WriteError(f"cannot stage {rel}: {e.strerror or e}; no file was changed "
                                 f"(fix the cause and run opgen generate again)") from None
            raise
        removed = [r for r in delete if (root / r).exists()]
        if not changed and not removed:
            return []
        tmp = root / (JOURNAL + ".tmp")
        try:
            _fsync_write(tmp, json.dumps({"replace": changed, "delete": removed}).encode())
            os.replace(tmp, root / JOURNAL)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            recover(root, scan_dirs)
            raise WriteError(f"cannot write the journal {JOURNAL}: {e.strerror or e}; no file was "
                             f"changed (fix the cause and run opgen generate again)") from None
        try:
            _apply(root, json.loads((root / JOURNAL).read_text()))
        except OSError as e:
            raise WriteError(f"cannot put {e.filename2 or e.filename or 'a file'} in place: {e.strerror or e}; "
                             f"{JOURNAL} lists the new files: fix the cause and run opgen "
                             f"generate again to finish the write") from None
        return changed + removed
