"""Time per decision (private to riskmath.sim): an agent that takes longer than ``move_time`` ends its game.

``play``, ``simulate``, ``victory_probabilities`` and ``tournament`` take
``move_time``, the seconds an agent may take over one decision (None, the
default, for no limit).  :class:`MoveClock` wraps each agent's decision:

* in the main thread of a process, on Unix (a pool's workers run their
  games there, and so does a script that calls ``simulate``), a decision
  still running after ``move_time`` is interrupted: an alarm
  (``signal.setitimer``, SIGALRM) raises :class:`OutOfTime` inside the
  agent's code, and again every :data:`RING_AGAIN` seconds should the agent
  swallow it;
* elsewhere (another thread, as on a Dask worker; Windows; a program that
  uses SIGALRM or the real-time interval timer itself), each decision is
  timed and one that took too long fails *after* it returns: an agent that
  never returns is not stopped there.

Either way the game ends with an :class:`~riskmath.AgentError` naming the
agent, its seat, the game's seed and the limit.  Without ``move_time``
nothing is wrapped: the play loop runs exactly as before.
"""

from __future__ import annotations

import math
import numbers
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

from riskmath._validation import shown
from riskmath.errors import AgentError, InvalidArgumentError

__all__ = ["MOST_MOVE_TIME", "RING_AGAIN", "MoveClock", "OutOfTime", "TimedAgent", "check_move_time"]

#: The largest ``move_time`` accepted, in seconds (about 11.6 days): beyond it, use None (no limit).
MOST_MOVE_TIME = 10**6

#: Seconds between two more alarms when an agent swallows the first (``except BaseException``).
RING_AGAIN = 0.05


def check_move_time(value: object) -> float | None:
    """``move_time`` as a float: None, or a positive number of seconds up to :data:`MOST_MOVE_TIME`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"move_time must be a number of seconds or None, got {shown(value)}")
    seconds = float(value)
    if not (seconds > 0 and math.isfinite(seconds)) or seconds > MOST_MOVE_TIME:
        raise InvalidArgumentError(
            f"move_time must be a number of seconds in (0, {MOST_MOVE_TIME}] (None for no limit), got {shown(value)}"
        )
    return seconds


class OutOfTime(BaseException):
    """Raised inside an agent's decision when its time is up.

    A ``BaseException``, so that an agent's ``except Exception`` does not
    swallow it.
    """


class MoveClock:
    """The time limit of one game's decisions, as a context manager around the game.

    :meth:`timed` wraps a decision function (an agent's ``act`` or a
    trusted agent's ``_decide``); entering the clock sets the SIGALRM
    handler where alarms can be used (see the module), leaving it puts the
    previous handler back.

    Examples
    --------
    >>> clock = MoveClock(0.5, seed=7)
    >>> quick = clock.timed(lambda state, rng: "done", seat=1, name="quick")
    >>> with clock:
    ...     quick(None, None)
    'done'
    """

    def __init__(self, move_time: float, seed: int) -> None:
        self.limit = move_time
        self.seed = seed
        self.alarm = _alarms_usable()
        self.armed = False  # a decision is running under the alarm
        self.expired = False  # the alarm rang during that decision
        self._previous: Any = None

    def __enter__(self) -> MoveClock:
        if self.alarm:
            self._previous = signal.signal(signal.SIGALRM, self._ring)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.alarm:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def _ring(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:  # (an alarm that arrives after the decision returned is ignored)
            self.expired = True
            raise OutOfTime

    def timed(self, decide: Callable[[Any, Any], Any], seat: int, name: str) -> Callable[[Any, Any], Any]:
        """``decide`` under the limit: it raises :class:`~riskmath.AgentError` when a decision takes too long."""
        limit, seed, alarm = self.limit, self.seed, self.alarm

        def timed_decide(state: Any, rng: Any) -> Any:
            start = time.perf_counter()
            try:
                if alarm:
                    self.expired = False
                    self.armed = True
                    signal.setitimer(signal.ITIMER_REAL, limit, RING_AGAIN)
                try:
                    result = decide(state, rng)
                finally:
                    if alarm:  # disarmed first: an alarm handled after this is ignored
                        self.armed = False
                        signal.setitimer(signal.ITIMER_REAL, 0)
            except OutOfTime:
                result = None
            took = time.perf_counter() - start
            if self.expired or took > limit:
                message = (
                    f"agent {name!r} in seat {seat} (game seed {seed}) did not answer within "
                    f"move_time={limit:g} s" + ("" if alarm else f" (it took {took:.3g} s)")
                )
                raise AgentError(message, agent=name, seat=seat, seed=seed)
            return result

        return timed_decide


class TimedAgent:
    """An agent whose ``act`` is timed by a :class:`MoveClock`; everything else is the agent's own."""

    def __init__(self, agent: Any, act: Callable[[Any, Any], Any]) -> None:
        self._agent = agent
        self.act = act

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._agent, attribute)


def _alarms_usable() -> bool:
    """Whether SIGALRM can interrupt a decision here: Unix, the main thread, and no alarm of the program's own."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN):
        return False  # the program's own handler (e.g. a test timeout): not ours to replace
    return signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
