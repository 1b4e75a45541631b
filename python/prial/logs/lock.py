"""One job per output at a time (``prial score``, ``prial replay``).

Two jobs writing one output (a run, and a ``--resume`` of it started a
moment later) would each rebuild the parts directory and the output under
the other, and both could end "complete" with an output that is neither's.
So a job holds an exclusive ``flock`` on ``OUTPUT.lock`` from before it
looks at its files until its last rename.  The kernel drops the lock when
its process dies, however it dies: the file a killed job leaves behind
blocks nothing.  The holder writes its pid into the file, so that a job
refused can say who holds it.
"""

from __future__ import annotations

import fcntl
import os

from .errors import LogError


def lock_path(output: str) -> str:
    return output + ".lock"


class JobLock:
    """``with JobLock(output, "prial score"):`` the job on ``output``;
    LogError (exit 1) naming the holder if another process has it."""

    def __init__(self, output: str, command: str) -> None:
        self.output = output
        self.command = command
        self.path = lock_path(output)
        self._fd: int | None = None

    def __enter__(self) -> JobLock:
        while self._fd is None:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                raise LogError(f"another {self.command} ({holder}) is writing {self.output}: wait for it to end, "
                                 "or stop it", status=1) from None
            except OSError as exc:  # a file system without locks
                os.close(fd)
                raise LogError(f"cannot lock {self.path}: {exc.strerror or exc}", status=1) from None
            # A holder that ended between our open and our flock has removed
            # the file we locked: a third job may hold a new one by that name.
            try:
                current = os.stat(self.path)
            except FileNotFoundError:
                current = None
            if current is not None and os.path.samestat(os.fstat(fd), current):
                self._fd = fd
            else:
                os.close(fd)
        os.ftruncate(self._fd, 0)
        os.write(self._fd, f"{os.getpid()}\n".encode())
        return self

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise LogError(f"cannot write the lock file {self.path}: {exc.strerror or exc}", status=1) from None

    def __exit__(self, *exc_info: object) -> None:
        if self._fd is None:
            return
        # Removed while still held, so that no job can lock a file on its way out.
        try:
            os.remove(self.path)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"pid {text}" if text.isdigit() else "pid unknown"
