"""Argument checks, resource limits, missing extras and deprecation warnings shared by the entry points (private).

The resource limits live here, in one place: every entry point that allocates
in proportion to its arguments estimates its memory (and, for slow exact
paths, its running time) from the arguments *before* allocating, and calls
:func:`check_cost`, which raises :class:`~riskmath.errors.ResourceLimitError`
past the limits.  Users change the limits with :func:`set_limits` (re-exported
as ``riskmath.set_limits``), globally or for a ``with`` block.

An old name kept for a new one warns with :func:`warn_deprecated` (a
property, a module's ``__getattr__``) or is a function wrapped by
:func:`deprecated`; either way the ``DeprecationWarning`` names what to use
instead and points at the user's line.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import numbers
import os
import threading
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from types import TracebackType
from typing import Any, ParamSpec, TypeGuard, TypeVar

from riskmath.errors import InvalidArgumentError, ResourceLimitError

resource: Any
try:  # imported here rather than on the first cost check: the first battle of a process should not pay for it
    import resource
except ImportError:  # not a POSIX system
    resource = None

__all__ = [
    "capped",
    "check_bool",
    "check_choice",
    "check_cost",
    "check_int",
    "check_probability",
    "check_real",
    "deprecated",
    "get_limits",
    "is_sequence",
    "set_limits",
    "shown",
    "unique_keys",
    "warn_deprecated",
]

#: Longest repr of a bad value quoted in an error message.
_MAX_SHOWN = 80


def shown(value: object) -> str:
    """``repr(value)`` for an error message, shortened past :data:`_MAX_SHOWN` characters.

    Never fails, even for an integer too long to print (Python refuses to turn
    ints of more than 4300 digits into text).

    Examples
    --------
    >>> shown(10**5000)
    'an integer of about 5001 digits'
    >>> shown("x" * 200)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (200 characters)"
    """
    if isinstance(value, numbers.Integral):
        number = int(value)
        if number.bit_length() > 100:  # more than about 30 digits
            digits = math.floor(number.bit_length() * math.log10(2)) + 1  # exact or one too many
            return f"{'a negative' if number < 0 else 'an'} integer of about {digits} digits"
    if isinstance(value, (str, bytes)) and len(value) > _MAX_SHOWN:
        return f"{repr(value[: _MAX_SHOWN - 20])[:-1]}...{repr(value)[-1]} ({len(value)} characters)"
    try:
        text = repr(value)
    except Exception:  # a repr that fails must not hide the real error
        text = f"<{type(value).__name__} object>"
    if len(text) > _MAX_SHOWN:
        text = f"{text[: _MAX_SHOWN - 20]}... ({len(text)} characters)"
    return text


def check_int(name: str, value: object, *, minimum: int | None = 0, maximum: int | None = None) -> int:
    """Return ``value`` as a Python ``int`` or raise :class:`InvalidArgumentError`.

    Accepts Python and NumPy integers; rejects ``bool``, floats (even ``3.0``),
    strings and anything outside ``[minimum, maximum]`` (``None``: no bound).
    """
    if type(value) is int:  # the usual case, without the slower test against the abstract class
        result = value
    elif isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer, got {shown(value)}")
    else:
        result = int(value)
    if minimum is not None and result < minimum:
        raise InvalidArgumentError(f"{name} must be >= {shown(minimum)}, got {shown(result)}")
    if maximum is not None and result > maximum:
        raise InvalidArgumentError(f"{name} must be <= {maximum}, got {shown(result)}")
    return result


def as_int(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is an integer (NumPy's integers too, ``bool`` not), else None.

    Counts in actions and chance outcomes go into a position as plain ints:
    a NumPy integer taken from an array is accepted and never stored as such.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def check_bool(name: str, value: object) -> bool:
    """Return ``value`` if it is True or False, else raise :class:`InvalidArgumentError` naming it."""
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be True or False, got {shown(value)}")
    return value


def check_probability(name: str, value: object) -> float | Fraction:
    """A probability strictly between 0 and 1: a Python, NumPy or Fraction number, not a bool or NaN.

    Rationals (ints, Fractions) are returned as Fractions; other reals (NumPy floats too) as Python floats.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a number, got {shown(value)}")
    result: float | Fraction
    if isinstance(value, numbers.Rational):
        result = Fraction(int(value.numerator), int(value.denominator))
    else:
        result = float(value)
    if not 0 < result < 1:  # False for NaN too
        raise InvalidArgumentError(f"{name} must be strictly between 0 and 1, got {shown(value)}")
    return result


def check_real(name: str, value: object, *, minimum: float = -math.inf) -> float:
    """A finite real number (Python, NumPy or Fraction; not a bool, NaN or infinite) at least ``minimum``,
    as a Python float."""
    number = math.nan
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:  # an integer or Fraction beyond the floats
            number = math.inf
    if not minimum <= number < math.inf:  # False for NaN too
        at_least = "" if minimum == -math.inf else f" >= {minimum:g}"
        raise InvalidArgumentError(f"{name} must be a finite number{at_least}, got {shown(value)}")
    return number


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise."""
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        raise InvalidArgumentError(f"{name} must be one of {', '.join(map(repr, options))}; got {shown(value)}")
    return value


def is_sequence(value: object) -> TypeGuard[Sequence[Any]]:
    """True for a list, tuple, 1-d NumPy array or similar sized, indexable container (not a string, not a mapping).

    A dict is sized and indexable but its order is its keys', so ``{0: 5, 1: 5}`` would be read as ``[0, 1]``.
    """
    if type(value) is tuple or type(value) is list:  # the usual case, without the slower test against Mapping
        return True
    if isinstance(value, (str, bytes, Mapping)):
        return False
    if getattr(value, "ndim", 1) != 1:
        return False
    return hasattr(value, "__len__") and hasattr(value, "__getitem__")


# -- deprecations ---------------------------------------------------------------

_P = ParamSpec("_P")
_R = TypeVar("_R")


def missing_extra(error: ModuleNotFoundError, user: str, package: str, extra: str) -> ModuleNotFoundError:
    """The error to raise when ``user`` (a module or feature of riskmath) cannot import an optional dependency:
    what is missing and the two ways to install it (the package itself, or riskmath's ``extra``).

    Used as ``except ModuleNotFoundError as error: raise missing_extra(error, ...) from error`` around the
    imports of a module that needs one; ``name`` stays the missing module's, as Python's own error has it.
    """
    return ModuleNotFoundError(
        f"{user} needs {package}, which is not installed ({error}): pip install {package}, or install "
        f"riskmath with its [{extra}] extra (from a checkout: pip install '.[{extra}]')",
        name=error.name,
    )


def warn_deprecated(old: str, new: str, *, stacklevel: int = 2) -> None:
    """Warn that ``old`` is deprecated, naming ``new``.

    ``stacklevel`` counts from the function that calls this one, as for
    :func:`warnings.warn`: the default 2 points at its caller's caller (the
    user's line that read a deprecated property or called an old function).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_deprecated("A.old", "A.new")
    >>> caught[0].category.__name__, str(caught[0].message)
    ('DeprecationWarning', 'A.old is deprecated: use A.new')
    """
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=stacklevel + 1)


def deprecated(old: str, new: str) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Decorate an old function kept for a new one: each call warns once (:func:`warn_deprecated`), then runs it.

    The wrapped function is the wrapper's ``__wrapped__``, for a caller that
    has already warned (a module's ``__getattr__`` warning on access).
    """

    def decorate(function: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(function)
        def warned(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            warn_deprecated(old, new)
            return function(*args, **kwargs)

        return warned

    return decorate


# -- resource limits ------------------------------------------------------------

GiB = 2**30
#: The memory budget when nothing else limits it: 2 GiB ...
DEFAULT_MAX_MEMORY = 2 * GiB
#: ... and the longest estimated running time of a slow (exact) computation, in seconds.
DEFAULT_MAX_SECONDS = 60.0


def default_max_memory() -> int:
    """The default memory budget: 2 GiB, at most a quarter of the physical memory,
    and at most half the address space the process may still take (``RLIMIT_AS``)."""
    budget = DEFAULT_MAX_MEMORY
    with contextlib.suppress(AttributeError, ValueError, OSError):  # not a POSIX system
        budget = min(budget, os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4)
    if resource is None:
        return max(budget, 1)
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            used = 0
            try:
                with open("/proc/self/statm") as statm:
                    used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, ValueError, IndexError):
                pass
            budget = min(budget, max(soft - used, 0) // 2)
    except (OSError, ValueError):
        pass
    return max(budget, 1)


class _Limits:
    """The limits in force; one instance, changed by :func:`set_limits`.

    The limits are the defaults overlaid, field by field, with every :class:`set_limits` still in effect, in
    the order they were made: a call made as a statement stays in effect, one made as a ``with`` block until
    its block ends.  The limits in force are recomputed from that list (under the lock) whenever it changes,
    so that blocks that end in any order, in any thread, leave the limits of the calls still in effect.
    Readers read the two attributes (no lock).
    """

    __slots__ = ("_base", "_changes", "_lock", "max_memory", "max_seconds")

    def __init__(self) -> None:
        self.max_memory: float | None = None  # None: default_max_memory(), worked out on first use (at import)
        self.max_seconds: float = DEFAULT_MAX_SECONDS
        self._base: dict[str, float] = {}  # the statements folded in (see add)
        self._changes: list[_Change] = []  # the calls in effect, oldest first
        self._lock = threading.Lock()

    def memory(self) -> float:
        if self.max_memory is None:
            self.max_memory = _default_memory()
        return self.max_memory

    def add(self, change: _Change) -> None:
        with self._lock:
            # A statement whose set_limits object is gone can no longer become a block: from the oldest on, such
            # changes are folded into the base for good, so that the list holds only blocks, the objects still
            # held, and the statements made after them.
            changes = self._changes
            while changes and not changes[0].entered and changes[0].owner() is None:
                self._base.update(changes.pop(0).fields)
            changes.append(change)
            self._recompute()

    def remove(self, change: _Change) -> None:
        with self._lock:
            self._changes = [c for c in self._changes if c is not change]
            self._recompute()

    def _recompute(self) -> None:
        values: dict[str, float | None] = {"max_memory": None, "max_seconds": DEFAULT_MAX_SECONDS, **self._base}
        for change in self._changes:
            values.update(change.fields)
        self.max_memory = values["max_memory"] if values["max_memory"] is not None else _default_memory()
        self.max_seconds = values["max_seconds"]  # type: ignore[assignment]


class _Change:
    """One :class:`set_limits` call's fields, held by :class:`_Limits` while it is in effect."""

    __slots__ = ("entered", "fields", "owner")

    def __init__(self, owner: set_limits, fields: dict[str, float]) -> None:
        self.owner = weakref.ref(owner)
        self.fields = fields
        self.entered = 0


@functools.lru_cache(maxsize=1)
def _default_memory() -> int:
    return default_max_memory()


#: The limits in force (layer-internal: :func:`check_cost` reads them; so does the battle cache, which
#: serves a remembered result only within them).  Read its attributes; change them with :func:`set_limits`.
LIMITS = _Limits()
LIMITS.memory()  # the default budget, worked out now (about 40 us) rather than by the first battle of a process


def get_limits() -> dict[str, float]:
    """The limits in force: ``{"max_memory": bytes, "max_seconds": seconds}``.

    Examples
    --------
    >>> sorted(get_limits())
    ['max_memory', 'max_seconds']
    """
    return {"max_memory": LIMITS.memory(), "max_seconds": LIMITS.max_seconds}


class set_limits:  # noqa: N801 -- used as a function, like numpy.errstate
    """Set the memory and time limits of the odds functions; a context manager that restores them.

    Every function of ``riskmath.odds`` (and the chance nodes of the game)
    estimates from its arguments, before allocating, the memory it needs and,
    for the slow exact paths, how long it will run; past a limit it raises
    :class:`~riskmath.ResourceLimitError` naming the argument, the estimate
    and the limit.

    The limits belong to the process (every thread).  A call made as a
    statement stays in effect; one made as a ``with`` block is in effect until
    its block ends.  The limits in force are the defaults overlaid with every
    call still in effect, the latest last: blocks ending in any order, in any
    thread, give back the limits of the calls still in effect (a statement
    inside a block stays in effect after it).

    Parameters
    ----------
    max_memory : int or float, optional
        Bytes one call may allocate.  Default: 2 GiB, but at most a quarter of
        the physical memory and half the address space left under ``ulimit -v``.
        ``math.inf`` switches the check off, and so does an integer too large
        for a float (``10**400``).
    max_seconds : float, optional
        Longest estimated running time of one call, in seconds (default 60).
        The estimates are rough (within a factor of a few on a 2-core machine);
        ``math.inf`` switches the check off.

    Examples
    --------
    Set the limits for the whole session, or for a block:

    >>> import riskmath as rm
    >>> with rm.set_limits(max_seconds=0.001):
    ...     rm.battle(400, 400, exact=True)
    Traceback (most recent call last):
        ...
    riskmath.errors.ResourceLimitError: battle(attackers=400, defenders=400, exact=True) would take about ...
    >>> rm.battle(400, 400).win_probability > 0.5     # the old limits again
    True
    """

    def __init__(self, *, max_memory: float | None = None, max_seconds: float | None = None) -> None:
        fields: dict[str, float] = {}
        if max_memory is not None:
            fields["max_memory"] = _positive("max_memory", max_memory)
        if max_seconds is not None:
            fields["max_seconds"] = _positive("max_seconds", max_seconds)
        self._change = _Change(self, fields)
        LIMITS.add(self._change)

    def __enter__(self) -> set_limits:
        self._change.entered += 1
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._change.entered = max(self._change.entered - 1, 0)  # (an exit without an entry ends the call too)
        if not self._change.entered:
            LIMITS.remove(self._change)

    def __repr__(self) -> str:
        return f"set_limits(max_memory={LIMITS.memory()!r}, max_seconds={LIMITS.max_seconds!r})"


def _positive(name: str, value: object) -> float:
    """A limit: a positive real number (``math.inf``: none); an integer beyond the floats counts as ``math.inf``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a positive number (math.inf for no limit), got {shown(value)}")
    try:
        number = float(value)
    except OverflowError:  # an integer (or Fraction) too large for a float: no limit, as math.inf
        number = math.inf if value > 0 else -math.inf  # type: ignore[operator]
    if not number > 0:  # False for NaN too
        raise InvalidArgumentError(f"{name} must be a positive number (math.inf for no limit), got {shown(value)}")
    return int(value) if isinstance(value, numbers.Integral) and math.isfinite(number) else number


def format_bytes(n: float) -> str:
    """``1536`` -> ``'1.5 KiB'``."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} bytes" if unit == "bytes" else f"{n:.3g} {unit}" if n >= 1e4 else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def format_seconds(t: float) -> str:
    """``90`` -> ``'1.5 min'``."""
    if t < 120:
        return f"{t:.2g} s"
    if t < 7200:
        return f"{t / 60:.1f} min"
    if t < 2 * 86400:
        return f"{t / 3600:.1f} h"
    return f"{t / 86400:.2g} days"


#: Sizes are capped at this in the cost estimates, so that products of a few of them stay finite floats
#: (anything this large is refused anyway).
SIZE_CAP = 2**100


def capped(*sizes: int) -> tuple[int, ...]:
    """``sizes`` with each capped at :data:`SIZE_CAP`, for cost estimates of absurd arguments."""
    return tuple(min(n, SIZE_CAP) for n in sizes)


#: A computation estimated to take longer than this says so up front: an INFO message on the ``riskmath``
#: logger (silent unless logging is configured; the command line prints it as a note on standard error).
NOTE_SECONDS = 2.0


#: How a refusal of :func:`check_cost` says to raise each limit (the command line says it in its options).
RAISE_MEMORY = "raise it with riskmath.set_limits(max_memory=...)"
RAISE_SECONDS = "raise it with riskmath.set_limits(max_seconds=...)"
#: The ``hint`` of a refusal of an exact (Fraction) computation: the float one is far cheaper.
USE_FLOATS = "use exact=False; "


def check_cost(what: Callable[[], str], *, memory: float = 0.0, seconds: float = 0.0, hint: str = "") -> None:
    """Raise :class:`ResourceLimitError` if ``memory`` bytes or ``seconds`` exceed the limits.

    ``what()`` names the call and its arguments (built only when refusing or
    announcing); ``hint`` suggests a cheaper call.  Within the limits but
    estimated over :data:`NOTE_SECONDS`, it logs how long the call will take.
    Costs only a few comparisons otherwise.
    """
    if memory > LIMITS.memory():
        raise ResourceLimitError(
            f"{what()} needs about {format_bytes(memory)}, more than the memory limit of "
            f"{format_bytes(LIMITS.memory())}; {hint}{RAISE_MEMORY}"
        )
    if seconds > LIMITS.max_seconds:
        raise ResourceLimitError(
            f"{what()} would take about {format_seconds(seconds)}, more than the time limit of "
            f"{format_seconds(LIMITS.max_seconds)}; {hint}{RAISE_SECONDS}"
        )
    if seconds > NOTE_SECONDS:
        logging.getLogger("riskmath").info("%s will take about %s (a rough estimate)", what(), format_seconds(seconds))


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook``: the object as a dict, ValueError for a key given twice.

    (JSON itself keeps the last value silently, so a hand-edited file with a key pasted twice loaded the
    value its editor may not have meant.)
    """
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key!r} is given twice in one object (keys must be unique)")
            seen.add(key)
    return data
