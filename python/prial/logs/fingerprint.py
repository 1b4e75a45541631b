"""Which input a job over a log read, by its content.

A resumed job must read the log the interrupted run read.  Its size and
modification time say little: a file rewritten in place within the same
clock tick, or copied with its times kept, keeps both.  So each committed
part records a hash of the input's first bytes, as far as the reader had
got, and ``--resume`` hashes as many bytes of the file it is given: a
change anywhere in what the committed parts came from refuses the resume.
The hash follows the reader, so each byte is hashed once, soon after it
was read (from the page cache).
"""

from __future__ import annotations

import hashlib

from .errors import LogError

BLOCK_BYTES = 1 << 20


class InputHash:
    """SHA-256 of a file's first bytes, grown on demand."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.bytes = 0
        self._hash = hashlib.sha256()
        self._file = None

    def advance(self, to: int) -> dict[str, object]:
        """The hash of the first ``to`` bytes (fewer if the file is shorter
        now), as a journal entry records it."""
        if self._file is None:
            self._file = open(self.path, "rb")  # noqa: SIM115 (closed by close())
        while self.bytes < to:
            block = self._file.read(min(BLOCK_BYTES, to - self.bytes))
            if not block:
                break
            self._hash.update(block)
            self.bytes += len(block)
        return {"input_bytes": self.bytes, "input_sha256": self._hash.hexdigest()}

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_as_before(path: str, recorded: dict) -> InputHash:
    """An InputHash of ``path`` advanced to where ``recorded`` (a journal
    entry) had got, or LogError if those bytes differ now."""
    fingerprint = InputHash(path)
    if "input_sha256" not in recorded:
        return fingerprint
    now = fingerprint.advance(recorded["input_bytes"])
    if now != {key: recorded[key] for key in now}:
        fingerprint.close()
        raise LogError(f"the input {path} is not the file the interrupted run read (its first "
                         f"{recorded['input_bytes']:,} bytes have changed): --overwrite starts afresh", status=1)
    return fingerprint
