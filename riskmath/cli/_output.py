"""How a ``riskmath`` run ends (private to :mod:`riskmath.cli`): its files, its notes, its exit status.

Everything the command writes besides a verb's answer is here:

* ``--out`` files written so that a crash loses nothing finished:
  :func:`check_out` refuses an unwritable path before any game is played,
  :class:`RowWriter` appends each game's row as it finishes (and cuts a
  half-written row off a full disk, raising :class:`OutFileError`), and
  :func:`write_table` replaces the file whole through a temporary file in
  its folder;
* notes on standard error: captured warnings (:func:`notes`) and the odds
  functions' announcements of long work (:func:`announce_long_work`), and
  :func:`any_digits`, which lets an exact answer print however long it is;
* the end of a run: :func:`status_of` runs the command and turns every
  error into one ``riskmath: error:`` line and status 2, an interruption
  (:class:`InterruptedRunError`: Ctrl-C, or SIGTERM or SIGHUP during a
  parallel run) into one line and status 128 + the signal's number (130,
  143, 129), and a closed pipe into status 1, never a traceback;
  :func:`leave` exits with that status, at once (``os._exit``) after an
  interruption.

No argument parsing and no mathematics here.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from riskmath.cli._parser import UsageError
from riskmath.errors import InvalidArgumentError, RiskmathError

__all__ = [
    "INTERRUPTED",
    "InterruptedRunError",
    "OutFileError",
    "RowWriter",
    "announce_long_work",
    "any_digits",
    "check_out",
    "interrupted_by",
    "leave",
    "notes",
    "status_of",
    "write_table",
]


class InterruptedRunError(Exception):
    """Ctrl-C, SIGTERM or SIGHUP stopped the run: the message says what was kept, ``status`` is the exit status."""

    def __init__(self, message: str, *, status: int = 130) -> None:
        super().__init__(message)
        self.status = status


#: The exit statuses of an interrupted run: 128 + SIGHUP, SIGINT, SIGTERM (as a shell reports a process they ended).
INTERRUPTED = frozenset({129, 130, 143})


def check_out(path: str) -> None:
    """Refuse an output file that cannot be written, before any game is played (creating it if need be)."""
    if os.path.isdir(path):
        raise InvalidArgumentError(f"--out {path!r} is a directory, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidArgumentError(f"--out {path!r}: the folder {folder!r} does not exist")
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise InvalidArgumentError(f"--out {path!r} cannot be written: {error.strerror or error}") from None


def write_table(table: Any, path: str, *, index: bool = False) -> None:
    """Write ``table`` to ``path`` whole, through a temporary file in its folder (a failure leaves the old file)."""
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        table.to_csv(temporary, index=index)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise InvalidArgumentError(f"--out {path!r} could not be written: {error.strerror or error}") from None


class OutFileError(Exception):
    """The ``--out`` file failed in the middle of a run (stops the run; turned into a one-line error)."""


class RowWriter:
    """Appends each finished game's row to the ``--out`` file as it comes, so that a run that dies keeps its games.

    The rows arrive in the order games finish; at the end of the run (or on
    Ctrl-C or an agent's failure) :func:`write_table` rewrites the file in seed
    order.  If a row cannot be written (a full disk), the file is cut back
    to the last whole row and the run stops: the file holds every game
    finished until then, in the order they finished.
    """

    def __init__(self, path: str, columns: list[str]) -> None:
        self.path, self.columns, self.written, self.size = path, columns, 0, 0
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        except OSError as error:
            raise InvalidArgumentError(f"--out {path!r} cannot be written: {error.strerror or error}") from None
        self._append(columns)

    def _append(self, values: list[Any]) -> None:
        import csv
        import io

        line = io.StringIO()
        csv.writer(line).writerow(values)
        data = line.getvalue().encode("utf-8")
        try:
            done = 0
            while done < len(data):  # (os.write may write part of it)
                done += os.write(self.fd, data[done:])
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, self.size)  # no half row at the end
            raise OutFileError(
                f"--out {self.path!r} could not be written after {self.written} games "
                f"({error.strerror or error}); the file holds those games, in the order they finished"
            ) from error
        self.size += len(data)

    def __call__(self, row: dict[str, Any]) -> None:
        self._append(["" if row[column] is None else row[column] for column in self.columns])
        self.written += 1

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def notes(caught: list[warnings.WarningMessage]) -> None:
    for warning in caught:
        print(f"riskmath: note: {warning.message}", file=sys.stderr)


@contextlib.contextmanager
def announce_long_work() -> Iterator[None]:
    """Print the odds functions' notes (how long a long exact computation will take) on standard error."""
    import logging

    logger = logging.getLogger("riskmath")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("riskmath: note: %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


@contextlib.contextmanager
def any_digits() -> Iterator[None]:
    """Lift Python's limit on printing long integers (3.10.7 and later) for the duration."""
    get, set_ = getattr(sys, "get_int_max_str_digits", None), getattr(sys, "set_int_max_str_digits", None)
    if get is None or set_ is None:
        yield
        return
    digits = get()
    set_(0)
    try:
        yield
    finally:
        set_(digits)


def status_of(run: Callable[[], None]) -> int:
    """Call ``run`` (a whole command) and return its exit status.

    0 when it ends normally; 2 after an error (bad input, out of memory, a
    worker process that died), 130 after Ctrl-C (143 after SIGTERM and 129
    after SIGHUP, which stop a parallel run the same way) and 1 when the
    reader of standard output went away.  Every error is one line on
    standard error, never a traceback.
    """
    try:
        run()
    except (UsageError, RiskmathError) as error:
        print(f"riskmath: error: {error}", file=sys.stderr)
        return 2
    except MemoryError:  # the estimates of riskmath.set_limits keep this rare; never a traceback
        print("riskmath: error: out of memory; try smaller numbers", file=sys.stderr)
        return 2
    except InterruptedRunError as interrupted:
        print(f"riskmath: {interrupted}", file=sys.stderr)
        return interrupted.status
    except KeyboardInterrupt as interrupt:  # (a SimulationInterrupted carries the signal that stopped the run)
        signum = signal.Signals(getattr(interrupt, "signum", signal.SIGINT))
        print(f"riskmath: {interrupted_by(signum)}", file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:
        # The reader went away (``riskmath ... | head -1``): no traceback, and none at exit either when Python
        # flushes stdout (https://docs.python.org/3/library/signal.html#note-on-sigpipe).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


def interrupted_by(signum: int) -> str:
    """``'interrupted'`` for Ctrl-C (SIGINT), ``'interrupted by SIGTERM'`` for another signal."""
    name = signal.Signals(signum).name
    return "interrupted" if name == "SIGINT" else f"interrupted by {name}"


def leave(status: int) -> NoReturn:
    """Exit the process with ``status``; after an interruption (:data:`INTERRUPTED`) at once.

    After an interruption the finished games are on file and the message is
    out; a process pool stopped mid-run may still have an internal thread
    waiting on a worker that was ended in the middle of a message, and
    Python would wait for that thread at exit.  So an interrupted run leaves
    at once (``os._exit`` after flushing the standard streams).
    """
    if status in INTERRUPTED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
