"""Worker processes that end with their parent, and the signals that stop a parallel run (private to riskmath.sim).

:func:`riskmath.simulate` runs its games in a pool of worker processes.
This module keeps that pool from outliving the run, however the run ends:

* :func:`stop_signals`, around a parallel run, turns SIGTERM and SIGHUP
  into an exception in the main thread (:class:`Stopped`, a
  ``KeyboardInterrupt`` like Ctrl-C's), so that the run stops as it does on
  Ctrl-C: the workers are ended and the finished games kept.  It takes over
  only a signal whose disposition is the default (which would end the
  process at once, leaving the workers behind and losing the finished
  games): a signal the program handles or ignores (``nohup`` ignores
  SIGHUP) keeps its handler, and the previous handlers are back when the
  run ends;
* :func:`start_worker`, each worker's initializer, leaves Ctrl-C to the
  parent, lets SIGTERM end the worker, and ties the worker's life to its
  parent's (:func:`die_with_parent`): on Linux the kernel kills the worker
  when its parent ends, even by SIGKILL (``prctl(PR_SET_PDEATHSIG)``);
  elsewhere a thread in the worker looks at its parent every second
  (:func:`watch_parent`);
* :func:`stop_pool` ends a pool at once without waiting on anything that
  could block (a worker ended in the middle of a message).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from types import FrameType

__all__ = ["STOP_SIGNALS", "Stopped", "die_with_parent", "start_worker", "stop_pool", "stop_signals", "watch_parent"]

#: The signals besides SIGINT that stop a parallel run, those this platform has (SIGHUP is not on Windows).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)

#: Seconds between two looks at the parent, where the kernel cannot be asked to end a worker with its parent.
WATCH_SECONDS = 1.0


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP during a parallel run, raised in the main thread as Ctrl-C raises ``KeyboardInterrupt``."""

    def __init__(self, signum: int) -> None:
        self.signum = signal.Signals(signum)
        super().__init__(self.signum.name)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread (once).

    Only in the main thread (Python runs its signal handlers there, and only
    there can they be set), and only for a signal whose disposition is the
    default: one that the program handles or ignores is left alone.  The
    first such signal raises; later ones, while the run stops, are ignored.
    The previous dispositions are restored on the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()
    raised = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal raised
        if os.getpid() != owner:  # a worker just forked, before its initializer: end as the default would
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        if not raised:
            raised = True
            raise Stopped(signum)

    previous = {}
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) == signal.SIG_DFL:
            previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, disposition in previous.items():
            signal.signal(signum, disposition)


def start_worker(owner: int) -> None:
    """A pool worker's initializer: Ctrl-C is the parent's to handle, SIGTERM ends the worker, and so does its
    parent's end (``owner`` is the parent's process id)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (a Ctrl-C reaches the whole process group)
    for signum in STOP_SIGNALS:  # not the parent's handlers, inherited by a forked worker
        signal.signal(signum, signal.SIG_DFL)
    die_with_parent(owner)


def die_with_parent(owner: int) -> None:
    """End this process when its parent ends: by the kernel on Linux, else by :func:`watch_parent`.

    ``owner`` is the process that started the pool.  Started by fork or
    spawn, the worker is its child: a parent that is already someone else
    means that the owner ended before this ran, and the worker leaves at
    once.  (Started by a fork server, the worker is the server's child, and
    the server ends with the owner.)
    """
    if not _kernel_ends_us_with_parent():
        watch_parent(os.getppid())
    if os.getppid() != owner and multiprocessing.get_start_method(allow_none=True) != "forkserver":
        os._exit(1)


def _kernel_ends_us_with_parent() -> bool:
    """Linux: ask for SIGKILL when the parent ends (``prctl(PR_SET_PDEATHSIG)``); False where that cannot be done.

    (The kernel sends it when the *thread* that started this process ends: a pool's workers are started by
    the thread that submits the work, which outlives them.)
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0)
    except (OSError, AttributeError):  # no libc to load, or no prctl in it
        return False


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def watch_parent(parent: int) -> threading.Thread:
    """Start a daemon thread that ends this process (``os._exit``) within a second of its parent ending.

    A process whose parent ends is given another (init, or a subreaper), so
    a change of ``os.getppid()`` from ``parent`` is the sign.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    thread = threading.Thread(target=watch, name="riskmath-watch-parent", daemon=True)
    thread.start()
    return thread


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: cancel the queued chunks and kill the workers (their chunks are lost); wait for nothing.

    Nothing here waits: a worker ended in the middle of a message could
    block a join for ever.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())  # (shutdown forgets them)
    # The call queue's feeder thread may be blocked writing a chunk to workers that are about to go: without this,
    # closing the pool joins that thread at exit and the process hangs.
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        with contextlib.suppress(Exception):
            call_queue.cancel_join_thread()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):  # (already gone)
            process.kill()
