"""Running test code in several threads at once, switched often, so that races show (for the thread-safety tests)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any


def in_threads(target: Callable[..., Any], arguments: Iterable[tuple[Any, ...]], switch: float = 1e-6) -> None:
    """Run ``target(*args)`` for every ``args`` at once, one thread each, switching threads every ``switch`` s.

    Python's default switch interval (5 ms) lets most races go unseen; a microsecond makes the threads
    interleave between almost any two steps.  The interval is restored however the threads end.
    """
    interval = sys.getswitchinterval()
    sys.setswitchinterval(switch)
    try:
        threads = [threading.Thread(target=target, args=args) for args in arguments]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
