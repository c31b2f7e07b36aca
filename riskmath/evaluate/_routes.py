"""Route search on a board graph, for :mod:`riskmath.evaluate` (no odds here)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence, Set

__all__ = ["ROUTES_TRIED", "SEARCH_CACHE_SIZE", "SEARCH_LIMIT", "covers", "longest_paths", "shares"]

SEARCH_LIMIT = 4000  # depth-first expansions per search
ROUTES_TRIED = 6  # covering routes kept for comparison
#: Searches remembered (all forgotten when full): each entry holds at most ``ROUTES_TRIED`` paths of at most
#: one territory each of the board, so the memo stays under a few MiB on any board of a few hundred
#: territories.  The same searches come back turn after turn (about 80 % of them in odds-agent games).
SEARCH_CACHE_SIZE = 4096

Path = tuple[int, ...]


def longest_paths(nbrs: Sequence[Sequence[int]], targets: set[int], starts: Sequence[int]) -> list[tuple[int, ...]]:
    """Simple paths through ``targets`` from any of ``starts``: the longest found, up to ``ROUTES_TRIED``.

    Depth-first, trying first the neighbor with the fewest onward choices
    (Warnsdorff's rule), which finds a path through every target quickly
    when one exists; stops after ``SEARCH_LIMIT`` expansions.  The search is
    deterministic, so its answers for a board given as a tuple of tuples (as
    :attr:`riskmath.Game.neighbors` is) are remembered, up to
    ``SEARCH_CACHE_SIZE`` of them (all forgotten when full).
    """
    board = _board(nbrs)
    if board is None:
        return _search(nbrs, targets, starts)
    key = (board[3], frozenset(targets), tuple(starts))
    found = _SEARCHES.get(key)
    if found is None:
        if len(_SEARCHES) >= SEARCH_CACHE_SIZE:
            _SEARCHES.clear()
        found = _SEARCHES[key] = tuple(_search(nbrs, targets, starts))
    return list(found)


#: Boards whose adjacency bit masks :func:`_search` has made (by id, with the board kept to check it; all
#: forgotten when full): a board is a few dozen ints.  Each has a number of its own, never reused, that the
#: remembered searches are filed under (hashing the board itself, a tuple of tuples, cost more than a search's
#: lookup).
_MASKS: dict[int, tuple[Sequence[Sequence[int]], list[int], frozenset[int], int]] = {}
_MASKS_KEPT = 64
_NUMBERS = itertools.count()
_SEARCHES: dict[tuple[int, frozenset[int], tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}


def _board(nbrs: Sequence[Sequence[int]]) -> tuple[Sequence[Sequence[int]], list[int], frozenset[int], int] | None:
    """The masks of a board given as a tuple of tuples (made once and kept), or None for any other board."""
    found = _MASKS.get(id(nbrs))
    if found is not None and found[0] is nbrs:
        return found
    if not (isinstance(nbrs, tuple) and all(type(row) is tuple for row in nbrs)):  # (lists may change)
        return None
    adjacent, twice = _made_masks(nbrs)
    if len(_MASKS) >= _MASKS_KEPT:
        _MASKS.clear()
    found = _MASKS[id(nbrs)] = (nbrs, adjacent, twice, next(_NUMBERS))
    return found


def _masks(nbrs: Sequence[Sequence[int]]) -> tuple[list[int], frozenset[int]]:
    """Each territory's neighbors as a bit mask, and the territories that list a neighbor twice."""
    board = _board(nbrs)
    return (board[1], board[2]) if board is not None else _made_masks(nbrs)


def _made_masks(nbrs: Sequence[Sequence[int]]) -> tuple[list[int], frozenset[int]]:
    adjacent = [0] * len(nbrs)
    twice = []
    for u, row in enumerate(nbrs):
        for v in row:
            adjacent[u] |= 1 << v
        if len(set(row)) != len(row):
            twice.append(u)
    return adjacent, frozenset(twice)


def _search(
    nbrs: Sequence[Sequence[int]], targets: Set[int], starts: Sequence[int], *, counting: bool = False
) -> list[tuple[int, ...]]:
    """:func:`longest_paths`, computed.

    The targets not on the path being extended are a bit mask (``free``),
    so a neighbor's count of free neighbors is one ``&`` and a bit count:
    about a quarter faster than sets on the odds agent's searches, with the
    same answers (the same order of neighbors, the ids breaking ties).
    ``counting`` counts each listing of a free neighbor instead, as a target
    that lists a neighbor twice needs (a mask counts it once; such a target
    turns it on); the tests hold the masks to it.
    """
    adjacent, twice = _masks(nbrs)
    counting = counting or not twice.isdisjoint(targets)
    best: list[tuple[int, ...]] = []
    best_len = 0
    budget = SEARCH_LIMIT
    total = len(targets)
    free = 0

    def extend(path: list[int], t: int) -> bool:
        nonlocal best_len, budget, free
        budget -= 1
        n = len(path)
        if n > best_len:
            best_len, best[:] = n, [tuple(path)]
        elif n == best_len and len(best) < ROUTES_TRIED:
            best.append(tuple(path))
        if best_len == total and len(best) >= ROUTES_TRIED:
            return True
        f = free  # Warnsdorff's rule: the neighbors with the fewest free neighbors first
        reach = adjacent[t] & f
        if not reach:  # a dead end (most expansions): nothing to rank
            return False
        if not reach & (reach - 1) and not twice:  # one way on (listed once: no row lists a neighbor twice)
            ranked = [(0, reach.bit_length() - 1)]
        elif counting:
            ranked = sorted([(sum(f >> v & 1 for v in nbrs[u]), u) for u in nbrs[t] if f >> u & 1])
        else:
            ranked = sorted([((adjacent[u] & f).bit_count(), u) for u in nbrs[t] if f >> u & 1])
        for _, u in ranked:
            if budget <= 0:
                return True
            free ^= 1 << u
            path.append(u)
            done = extend(path, u)
            path.pop()
            free ^= 1 << u
            if done:
                return True
        return False

    everything = 0
    for u in targets:
        everything |= 1 << u
    for start in starts:
        free = everything & ~(1 << start)
        if extend([start], start) or budget <= 0:
            break
    return best


def covers(nbrs: Sequence[Sequence[int]], enemy: set[int], strength: Callable[[int], int]) -> list[list[Path]]:
    """Ways to cover ``enemy`` with paths; each path starts where ``strength`` (of the stack next to it) is > 0.

    The candidates: up to ``ROUTES_TRIED`` single paths through everything
    (starts tried strongest first), then a greedy cover by several paths,
    each the longest path from next to the strongest stack left.  An empty
    list when some part has no start.
    """
    power = {t: strength(t) for t in enemy}
    starts = sorted((t for t in enemy if power[t] > 0), key=lambda t: (-power[t], t))
    if not starts:
        return []
    found = [[path] for path in longest_paths(nbrs, enemy, starts) if len(path) == len(enemy)]
    remaining = set(enemy)
    pieces: list[Path] = []
    while remaining:
        options = [t for t in remaining if power[t] > 0]
        if not options:
            return found
        top = max(power[t] for t in options)
        paths = longest_paths(nbrs, remaining, sorted(t for t in options if power[t] == top))
        pieces.append(paths[0])
        remaining -= set(paths[0])
    if pieces not in found:
        found.append(pieces)
    return found


def shares(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` split in proportion to ``weights`` (largest remainders)."""
    if len(weights) == 1:  # (the usual case: all of it, or nothing; ``total * w / w`` is ``total`` exactly)
        return [total] if total > 0 and weights[0] != 0 else [0]
    whole = sum(weights)
    if whole == 0 or total <= 0:
        return [0] * len(weights)
    if total * max(weights) < 1 << 53:  # every product exact in a float: the split the agents have always made
        raw = [total * w / whole for w in weights]
        parts = [int(r) for r in raw]
        for k in sorted(range(len(raw)), key=lambda k: parts[k] - raw[k])[: total - sum(parts)]:
            parts[k] += 1
        return parts
    # Past that, in integers, so that any total splits exactly (the floats overflowed, or placed more than the
    # total): each part the floor of total * w / whole, then one more to the largest remainders, the first on ties.
    parts = [total * w // whole for w in weights]
    remainders = [total * w % whole for w in weights]
    for k in sorted(range(len(weights)), key=lambda k: -remainders[k])[: total - sum(parts)]:
        parts[k] += 1
    return parts
