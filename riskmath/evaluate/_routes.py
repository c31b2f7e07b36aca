"""Route search on a board graph, for :mod:`riskmath.evaluate` (no odds here)."""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from functools import lru_cache

__all__ = ["ROUTES_TRIED", "SEARCH_CACHE_SIZE", "SEARCH_LIMIT", "covers", "longest_paths", "shares"]

SEARCH_LIMIT = 4000  # depth-first expansions per search
ROUTES_TRIED = 6  # covering routes kept for comparison
#: Searches remembered (least recently used dropped first): each entry holds at most ``ROUTES_TRIED`` paths
#: of at most one territory each of the board, so the cache stays under a few MiB on any board of a few
#: hundred territories.  The same searches come back turn after turn (about 80 % of them in odds-agent games).
SEARCH_CACHE_SIZE = 4096

Path = tuple[int, ...]


def longest_paths(nbrs: Sequence[Sequence[int]], targets: set[int], starts: Sequence[int]) -> list[tuple[int, ...]]:
    """Simple paths through ``targets`` from any of ``starts``: the longest found, up to ``ROUTES_TRIED``.

    Depth-first, trying first the neighbor with the fewest onward choices
    (Warnsdorff's rule), which finds a path through every target quickly
    when one exists; stops after ``SEARCH_LIMIT`` expansions.  The search is
    deterministic, so its answers for a board given as a tuple of tuples (as
    :attr:`riskmath.Game.neighbors` is) are remembered, up to
    ``SEARCH_CACHE_SIZE`` of them.
    """
    if isinstance(nbrs, tuple):
        return list(_remembered(nbrs, frozenset(targets), tuple(starts)))
    return _search(nbrs, targets, starts)


@lru_cache(maxsize=SEARCH_CACHE_SIZE)
def _remembered(
    nbrs: tuple[tuple[int, ...], ...], targets: frozenset[int], starts: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return tuple(_search(nbrs, targets, starts))


def _search(nbrs: Sequence[Sequence[int]], targets: Set[int], starts: Sequence[int]) -> list[tuple[int, ...]]:
    """:func:`longest_paths`, computed."""
    best: list[tuple[int, ...]] = []
    best_len = 0
    budget = SEARCH_LIMIT

    free: set[int] = set()  # the targets not on the path being extended
    # Each target's neighbors among the targets, as a set (a count of free neighbors is then one C call);
    # a neighbor listed twice would count twice, so such a graph keeps the plain count.
    near = {u: frozenset(v for v in nbrs[u] if v in targets) for u in targets}
    plain = any(len(set(nbrs[u])) != len(nbrs[u]) for u in targets)

    def onward(t: int) -> list[int]:
        if plain:
            ranked = sorted([(sum(v in free for v in nbrs[u]), u) for u in nbrs[t] if u in free])
        else:  # (the same order as sorting the neighbors by that key: the ids break ties)
            ranked = sorted([(len(near[u] & free), u) for u in nbrs[t] if u in free])
        return [u for _, u in ranked]

    def extend(path: list[int]) -> bool:
        nonlocal best_len, budget
        budget -= 1
        if len(path) > best_len:
            best_len, best[:] = len(path), [tuple(path)]
        elif len(path) == best_len and len(best) < ROUTES_TRIED:
            best.append(tuple(path))
        if best_len == len(targets) and len(best) >= ROUTES_TRIED:
            return True
        for u in onward(path[-1]):
            if budget <= 0:
                return True
            free.discard(u)
            path.append(u)
            done = extend(path)
            path.pop()
            free.add(u)
            if done:
                return True
        return False

    for start in starts:
        free.clear()
        free.update(targets)
        free.discard(start)
        if extend([start]) or budget <= 0:
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
