"""How a ``riskmath`` run ends (private to :mod:`riskmath.cli`): its files, its notes, its exit status.

Everything the command writes besides a verb's answer is here:

* ``--out`` files written so that a crash loses nothing finished and
  nothing but a regular file is ever replaced: :func:`check_out` refuses
  an unwritable path before any game is played and decides how the path is
  written (:class:`OutPath`: a link followed, a regular file replaced
  through a temporary file in its folder, a FIFO or a device written into,
  standard output written through), :class:`RowWriter` appends each
  game's row to a regular file as it finishes (and cuts a half-written row
  off a full disk, raising :class:`OutFileError`), and :func:`save_table`
  writes the whole table at the end, keeping a copy in the temporary
  folder if that fails (:func:`shown` then prints the answer anyway);
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
import dataclasses
import errno
import os
import signal
import stat
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, NoReturn

from riskmath._validation import RAISE_MEMORY, RAISE_SECONDS, USE_FLOATS
from riskmath.cli._parser import UsageError
from riskmath.errors import InvalidArgumentError, ResourceLimitError, RiskmathError

__all__ = [
    "INTERRUPTED",
    "How",
    "InterruptedRunError",
    "OutFileError",
    "OutPath",
    "RowWriter",
    "announce_long_work",
    "any_digits",
    "check_out",
    "interrupted_by",
    "kept_elsewhere",
    "leave",
    "named",
    "notes",
    "rows_to",
    "save_table",
    "shown",
    "status_of",
]


class InterruptedRunError(Exception):
    """Ctrl-C, SIGTERM or SIGHUP stopped the run: the message says what was kept, ``status`` is the exit status."""

    def __init__(self, message: str, *, status: int = 130) -> None:
        super().__init__(message)
        self.status = status


#: The exit statuses of an interrupted run: 128 + SIGHUP, SIGINT, SIGTERM (as a shell reports a process they ended).
INTERRUPTED = frozenset({129, 130, 143})


#: How an ``--out`` file is written (chosen by :func:`check_out` from what the path holds):
#: ``"replace"`` a regular file (or a new one) through a temporary file in its folder, renamed over it;
#: ``"in place"`` a regular file opened and rewritten (its folder is not writable, or it has other hard links);
#: ``"into"`` a FIFO or a character device, opened and written, never replaced;
#: ``"stdout"`` / ``"stderr"`` the file already open as standard output or error, written through that stream.
How = Literal["replace", "in place", "into", "stdout", "stderr"]


@dataclasses.dataclass(frozen=True)
class OutPath:
    """An ``--out`` path checked by :func:`check_out`: where the file is written and how."""

    given: str  # the path as typed: the messages name it
    target: str  # the file written: the path with its symbolic links followed
    how: How

    @property
    def takes_rows(self) -> bool:
        """Whether rows can be appended as they come (a regular file) and the file put in order at the end."""
        return self.how in ("replace", "in place")


def named(path: str) -> str:
    """``repr(path)`` for a message, a path of over 300 characters shortened in its middle (one line stays short)."""
    if len(path) <= 300:
        return repr(path)
    return f"{path[:150]!r}...{path[-100:]!r} ({len(path)} characters)"


def _cannot(path: str, error: OSError) -> InvalidArgumentError:
    return InvalidArgumentError(f"--out {named(path)} cannot be written: {error.strerror or error}")


def _try_open(path: str, flags: int) -> None:
    """Open ``path`` for writing with ``flags`` and close it, or refuse it in one line naming the OS error."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_NOCTTY | flags, 0o666))
    except OSError as error:
        raise _cannot(path, error) from None


def _same_as(status: os.stat_result, fd: int) -> bool:
    try:
        return os.path.samestat(status, os.fstat(fd))
    except OSError:  # (that stream is closed)
        return False


def _without_storage(path: str) -> bool:
    """Whether ``path`` is on a filesystem that stores nothing (no blocks, no inodes: proc, sysfs, cgroup)."""
    try:
        status = os.statvfs(path)
    except OSError:  # (cannot tell: the writes will say)
        return False
    return status.f_blocks == 0 and status.f_files == 0


def check_out(path: str, *, inputs: Sequence[str] = (), reads_stdin: bool = False) -> OutPath:
    """Check an ``--out`` path before any game is played, and decide how it is written.

    A symbolic link is followed: its target is written and the link kept.
    A regular file, or a missing one in an existing folder (created here to
    see that it can be, and removed again), is replaced at the end through a temporary file in its folder,
    keeping its permissions, or rewritten in place when its folder is not
    writable or it has other hard links.  A FIFO or a character device
    (``/dev/null``, ``/dev/stdout``, a terminal) is written into, never
    replaced; the file already open as standard output or error is written
    through that stream.  Anything else (a directory, a block device, a
    socket, a missing folder, a file that cannot be opened for writing, one
    of ``inputs`` or, with ``reads_stdin``, the file standard input reads, an
    empty path, a file of the kernel's on a filesystem that stores nothing,
    such as ``/proc/version``, which root can open but not write) is refused
    with an :class:`InvalidArgumentError` naming the path.
    """
    if not path:
        raise InvalidArgumentError("--out '' is not a file name (leave --out out to write no file)")
    link = False
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
        status: os.stat_result | None = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        status = None  # nothing there, or a link to nothing
    except OSError as error:  # a loop of links, a folder that cannot be searched, a name too long
        raise _cannot(path, error) from None
    target = os.path.realpath(path)
    through = f"--out {named(path)} is a link to {target!r}" if link else f"--out {named(path)}"
    if status is None:
        return _new_file(path, target, through if link else None)
    streams: tuple[tuple[int, How], ...] = ((1, "stdout"), (2, "stderr"))
    for fd, name in streams:
        if _same_as(status, fd):
            return OutPath(path, path, name)
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        raise InvalidArgumentError(f"{through}{', a' if link else ' is a'} directory, not a file")
    if any(os.path.exists(name) and os.path.samefile(name, path) for name in inputs):
        raise InvalidArgumentError(f"--out {named(path)} is the file being read: it would be overwritten")
    if reads_stdin and _same_as(status, 0):
        raise InvalidArgumentError(
            f"--out {named(path)} is the file being read (standard input): it would be overwritten"
        )
    if stat.S_ISREG(mode):
        if _without_storage(target):
            raise InvalidArgumentError(
                f"{through} is a file of the kernel's (on a filesystem that stores nothing, as /proc and /sys): "
                "not a file a table can be written to"
            )
        return _regular_file(path, target, status)
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        if stat.S_ISCHR(mode):  # (a FIFO is not opened here: that waits for a reader)
            _try_open(path, os.O_NONBLOCK)
        elif not os.access(path, os.W_OK):
            raise _cannot(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
        return OutPath(path, path, "into")
    kind = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file"
    raise InvalidArgumentError(
        f"{through} is {kind}: --out writes files, FIFOs and character devices, and replaces only regular files"
    )


def _new_file(path: str, target: str, link: str | None) -> OutPath:
    """Nothing at ``path`` (or a link, described by ``link``, to nothing): create it empty if its folder exists."""
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        if link is not None:
            raise InvalidArgumentError(f"{link}, whose folder does not exist")
        parent = os.path.dirname(os.path.abspath(path))
        its = " (it is a file)" if os.path.isfile(parent) else ""
        raise InvalidArgumentError(f"--out {named(path)}: the folder {parent!r} does not exist{its}")
    # A probe: the file is made (through the link if there is one) to see that it can be, then removed, so that a
    # run refused later for its arguments leaves nothing behind; the run makes it again with its first game or table.
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_CREAT | os.O_EXCL, 0o666))
    except FileExistsError:  # (made by someone else since it was looked at: theirs, not removed)
        return _regular_file(path, target, os.stat(target))
    except OSError as error:
        raise _cannot(path, error) from None
    with contextlib.suppress(OSError):
        os.remove(target)
    return OutPath(path, target, "replace")


def _regular_file(path: str, target: str, status: os.stat_result) -> OutPath:
    """A regular file at ``path`` (the link ``path`` leads to ``target``): replaced if it can be, else in place."""
    _try_open(path, os.O_APPEND)
    try:
        named = os.path.samestat(os.stat(target), status)  # (not so for the links of /proc/self/fd to a pipe)
    except OSError:
        named = False
    if named and status.st_nlink == 1 and os.access(os.path.dirname(target), os.W_OK | os.X_OK):
        return OutPath(path, target, "replace")
    return OutPath(path, target if named else path, "in place")


def _write_all(fd: int, data: bytes) -> None:
    done = 0
    while done < len(data):  # (os.write may write part of it)
        done += os.write(fd, data[done:])


def _regular_or_none(target: str) -> os.stat_result | None:
    """The status of ``target`` if it is a regular file, None if nothing is there; raise if it became anything else."""
    try:
        status = os.stat(target)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EEXIST, "it is no longer a regular file")
    return status


def _replace(target: str, data: bytes) -> None:
    """Put ``data`` at ``target`` whole: a temporary file in its folder, renamed over it (which stays regular)."""
    old = _regular_or_none(target)
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        try:
            if old is None:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(fd, 0o666 & ~umask)  # as a new file would be
            else:
                os.fchmod(fd, stat.S_IMODE(old.st_mode))  # the old file's permissions and owner
                with contextlib.suppress(OSError):
                    os.fchown(fd, old.st_uid, old.st_gid)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def _put(data: bytes, out: OutPath) -> None:
    """Write ``data`` to ``out`` as its check decided; any failure is an ``OSError``."""
    if out.how in ("stdout", "stderr"):
        stream = sys.stdout if out.how == "stdout" else sys.stderr
        stream.write(data.decode("utf-8"))
        stream.flush()
        return
    if out.how == "replace":
        _replace(out.target, data)
        return
    flags = os.O_WRONLY | os.O_NOCTTY | os.O_TRUNC  # (truncating a FIFO or a device does nothing)
    if out.how == "in place":
        _regular_or_none(out.target)
        flags |= os.O_CREAT
    fd = os.open(out.target, flags, 0o666)  # a FIFO waits here for its reader, as a shell redirection does
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def _keep_elsewhere(data: bytes) -> str:
    """Write ``data`` to a new file in the temporary folder and return its path."""
    fd, path = tempfile.mkstemp(prefix="riskmath-", suffix=".csv")
    try:
        _write_all(fd, data)
    except OSError:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.remove(path)
        raise
    os.close(fd)
    return path


def save_table(table: Any, out: OutPath, writer: RowWriter | None = None, *, index: bool = False) -> str | None:
    """Write ``table`` as CSV to ``out`` whole (closing ``writer`` first); return ``None``, or why it failed.

    Header and rows are one write, in one error handling.  If it fails, the
    CSV is kept in a new file in the temporary folder and the returned line
    says where, and why ``out`` could not be written: the results are never
    lost.  A reader of standard output that went away is the usual closed
    pipe (``BrokenPipeError``), not a failure of the file.
    """
    if writer is not None:
        writer.close()
    data = table.to_csv(index=index).encode("utf-8")
    try:
        _put(data, out)
    except BrokenPipeError:
        if out.how == "stdout":
            raise
        reason = os.strerror(errno.EPIPE)
    except OSError as error:
        reason = error.strerror or str(error)
    else:
        return None
    failed = f"--out {out.given!r} could not be written ({reason})"
    try:
        return f"{failed}; the CSV is in {_keep_elsewhere(data)!r} instead"
    except OSError as error:
        return f"{failed}, nor could a copy in {tempfile.gettempdir()!r} ({error.strerror or error})"


def kept_elsewhere(table: Any) -> str:
    """Where the finished games of a run whose ``--out`` failed mid-run were kept: words to end its message with.

    The games' table (``None``: no table) as CSV in a new file in the temporary folder, so that no finished game
    is lost with the file that failed.
    """
    if table is None or not len(table):
        return ""
    try:
        return (
            f"; the games that finished ({len(table)}) are in {_keep_elsewhere(table.to_csv(index=False).encode())!r}"
        )
    except OSError as error:
        return (
            f"; the games that finished ({len(table)}) could not be kept elsewhere either ({error.strerror or error})"
        )


def shown(text: str, failed: str | None) -> str:
    """The answer ``text`` of a run whose ``--out`` was saved; if it failed, print it and raise the failure."""
    if failed is None:
        return text
    print(text, flush=True)
    raise InvalidArgumentError(failed)


class OutFileError(Exception):
    """The ``--out`` file failed in the middle of a run (stops the run; turned into a one-line error)."""


class RowWriter:
    """Appends each finished game's row to the ``--out`` file as it comes, so that a run that dies keeps its games.

    Only for a regular file (:attr:`OutPath.takes_rows`).  The file is
    opened (emptied) and the header written with the first game's row, not
    before: a run refused for its arguments (checked by the run, after this
    writer is made) leaves an existing file as it was.  The rows arrive in
    the order games finish; at the end of the run (or on Ctrl-C or an
    agent's failure) :func:`save_table` rewrites the file in seed order.  If
    a row cannot be written (a full disk), the file is cut back to the last
    whole row and the run stops (:class:`OutFileError`): the file holds
    every game finished until then, in the order they finished.
    """

    def __init__(self, out: OutPath, columns: list[str]) -> None:
        self.path, self.target, self.columns, self.written, self.size = out.given, out.target, columns, 0, 0
        self.fd: int | None = None

    def _open(self) -> None:
        try:
            self.fd = os.open(self.target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOCTTY, 0o666)
        except OSError as error:
            raise OutFileError(str(_cannot(self.path, error))) from error
        self._append(self.columns)

    def _append(self, values: list[Any]) -> None:
        import csv
        import io

        line = io.StringIO()
        csv.writer(line).writerow(values)
        data = line.getvalue().encode("utf-8")
        assert self.fd is not None
        try:
            _write_all(self.fd, data)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, self.size)  # no half row at the end
            if not self.size:  # (the header)
                raise OutFileError(str(_cannot(self.path, error))) from error
            raise OutFileError(
                f"--out {self.path!r} could not be written after {self.written} games "
                f"({error.strerror or error}); the file holds those games, in the order they finished"
            ) from error
        self.size += len(data)

    def __call__(self, row: dict[str, Any]) -> None:
        if self.fd is None:
            self._open()
        self._append(["" if row[column] is None else row[column] for column in self.columns])
        self.written += 1

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None


def rows_to(out: OutPath | None, columns: list[str]) -> RowWriter | None:
    """A :class:`RowWriter` for ``out`` if it takes rows as they come (a regular file), else ``None``."""
    return RowWriter(out, columns) if out is not None and out.takes_rows else None


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


#: What a refusal for the limits suggests in Python, and the same in the command's options.
_OPTIONS = (
    (RAISE_MEMORY, "raise it with --max-memory (e.g. --max-memory 8GiB)"),
    (RAISE_SECONDS, "raise it with --max-seconds (e.g. --max-seconds 600)"),
    (USE_FLOATS, "leave out --exact; "),
)


def _in_options(message: str) -> str:
    """A :class:`ResourceLimitError`'s message with its remedies said in the command's options."""
    for python, option in _OPTIONS:
        message = message.replace(python, option)
    return message


def status_of(run: Callable[[], None]) -> int:
    """Call ``run`` (a whole command) and return its exit status.

    0 when it ends normally; 2 after an error (bad input, out of memory, a
    worker process that died, an answer that could not be written to
    standard output), 130 after Ctrl-C (143 after SIGTERM and 129
    after SIGHUP, which stop a parallel run the same way) and 1 when the
    reader of standard output went away.  Every error is one line on
    standard error, never a traceback.
    """
    try:
        run()
    except (UsageError, RiskmathError) as error:
        print(
            f"riskmath: error: {_in_options(str(error)) if isinstance(error, ResourceLimitError) else error}",
            file=sys.stderr,
        )
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
        _quiet_stdout()
        return 1
    except OSError as error:  # the answer could not be written (``> /dev/full``: no space left on the device)
        what = f" {error.filename!r}" if error.filename else " standard output"
        print(f"riskmath: error: could not write to{what}: {error.strerror or error}", file=sys.stderr)
        _quiet_stdout()
        return 2
    return 0


def _quiet_stdout() -> None:
    """Point standard output at the null device: Python's flush at exit must not fail (and print) again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())


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
