"""Tree plans: a stack that splits after a capture to continue along several branches.

A plan is a tree of :class:`Target` nodes.  The stack attacks the root
territory; after each capture ``leave`` armies stay, and the armies moving on
are divided among the node's children by its ``split`` rule, each share
attacking its child (a share of ``x`` armies is ``x`` armies able to attack:
the armies left behind in the captured territory provide the one that must
stay).  A share of 0 cannot attack, so that branch fails.

The branches after a split fight independent battles, so with ``F_v(x)`` the
probability that the subtree of ``v`` falls to ``x`` attackers,

.. math::

    F_v(x) = \\sum_y P(\\text{take } v \\text{ with } y \\text{ left} \\mid x)
             \\prod_{c} F_c\\bigl(\\text{share}_c(y - \\text{leave}_v)\\bigr),

one backward sweep of the battle chain per node gives ``F_v`` for every
``x`` at once.  Forward sweeps then give the distribution of the force at
every node and, weighting each split by the success of the sibling branches,
the distribution of armies at each leaf *given that the whole plan succeeds*.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import USE_FLOATS, capped, check_cost, check_int, is_sequence, shown, warn_deprecated
from riskmath.errors import InvalidArgumentError, UndefinedStatisticError
from riskmath.odds._backward import backward_exact, backward_float
from riskmath.odds._sweeps import Kernel, backward_cost, kernel
from riskmath.odds.conquests import (
    Vector,
    armies_given,
    attack_with,
    battles_cost,
    check_exact,
    mean_sd,
    plain_probability,
    zero_vector,
)
from riskmath.odds.dice import CombatRules, resolve_rules

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PlanResult", "Target", "plan_conquest"]

#: How a node divides the armies moving on among its children: ``"even"``;
#: a sequence with one entry per child, each a fixed number of armies or
#: ``None`` for "the rest" (at most one ``None``; fixed shares are served in
#: order while armies last, and without a ``None`` what is left over stays);
#: or a function of the number of armies moving on returning the shares.
Split = str | Sequence[int | None] | Callable[[int], Sequence[int]]


@dataclass(frozen=True, eq=False, repr=False)
class Target:
    """One territory of a plan, and what to do after taking it.

    Parameters
    ----------
    defenders : int
        Defending armies (``>= 1``).
    name : str, optional
        A label for tables; unnamed targets are labeled by their position,
        e.g. ``"1.2"`` for the second child of the root's first child.
    leave : int, default 1
        Armies that stay in this territory after its capture.
    then : sequence of Target, default ()
        The territories attacked next, from this one.
    split : "even", sequence of int or None, or callable, default "even"
        How the armies moving on are shared among ``then`` (see :data:`~riskmath.odds.plans.Split`).

    Examples
    --------
    Sweeping Australia from Siam: take Indonesia, leave 1, then split the rest
    between New Guinea (3 fixed armies) and Western Australia (the rest):

    >>> plan = Target(2, "Indonesia", then=[Target(1, "New Guinea"), Target(2, "Western Australia")],
    ...               split=(3, None))
    >>> [t.name for t in plan.walk()]
    ['Indonesia', 'New Guinea', 'Western Australia']
    >>> plan.shares(7)     # 7 armies move on from Indonesia
    (3, 4)
    """

    defenders: int
    name: str | None = None
    leave: int = 1
    then: Sequence[Target] = field(default=())
    split: Split = "even"

    def __post_init__(self) -> None:
        # (stored as plain ints: a NumPy integer from an array is taken, and kept out of reprs and sums)
        object.__setattr__(self, "defenders", check_int("Target.defenders", self.defenders, minimum=1))
        object.__setattr__(self, "leave", check_int("Target.leave", self.leave, minimum=0))
        if self.name is not None and not isinstance(self.name, str):
            raise InvalidArgumentError(f"Target.name must be a string or None, got {shown(self.name)}")
        given: object = self.then  # annotated as Targets, but anything may be passed
        if isinstance(given, (str, bytes, AbstractSet, Mapping)) or not isinstance(given, Iterable):  # (ordered)
            raise InvalidArgumentError(f"Target.then must be a sequence of Targets, got {shown(self.then)}")
        then = tuple(self.then)
        for child in then:
            if not isinstance(child, Target):
                raise InvalidArgumentError(f"Target.then must hold Targets, got {shown(child)}")
        object.__setattr__(self, "then", then)
        split = self.split
        if isinstance(split, str):
            if split != "even":
                raise InvalidArgumentError(f"Target.split must be 'even', a sequence or a function, got {shown(split)}")
        elif callable(split):
            pass
        elif isinstance(split, (AbstractSet, Mapping)) or not isinstance(split, Iterable):  # (a set has no order)
            raise InvalidArgumentError(f"Target.split must be 'even', a sequence or a function, got {shown(split)}")
        else:
            shares = tuple(split)
            if len(shares) != len(then):
                raise InvalidArgumentError(
                    f"Target.split must have one share per child ({len(then)}), got {len(shares)}: {shown(shares)}"
                )
            for share in shares:
                if share is not None:
                    check_int("Target.split share", share, minimum=0)
            if sum(share is None for share in shares) > 1:
                raise InvalidArgumentError(f"Target.split may hold at most one None (the rest), got {shown(shares)}")
            object.__setattr__(self, "split", shares)

    # Equality, hashing and the repr walk the tree with a stack of their own, as walk() does: the dataclass's
    # methods recursed once per level, and a path of 3,000 targets raised RecursionError in each.
    def _fields(self) -> tuple[Any, ...]:
        return (self.defenders, self.name, self.leave, self.split, len(self.then))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Target):
            return NotImplemented
        pairs = [(self, other)]
        while pairs:
            one, two = pairs.pop()
            if one is two:
                continue
            if one._fields() != two._fields():
                return False
            pairs.extend(zip(one.then, two.then, strict=True))
        return True

    def __hash__(self) -> int:
        hashes: dict[int, int] = {}
        stack: list[tuple[Target, bool]] = [(self, False)]
        while stack:  # children before their parent
            node, ready = stack.pop()
            if ready:
                hashes[id(node)] = hash((*node._fields(), *(hashes[id(child)] for child in node.then)))
            elif id(node) not in hashes:
                stack.append((node, True))
                stack.extend((child, False) for child in node.then)
        return hashes[id(self)]

    def __repr__(self) -> str:
        parts: list[str] = []
        stack: list[Target | str] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
                continue
            parts.append(f"Target(defenders={item.defenders!r}, name={item.name!r}, leave={item.leave!r}, then=(")
            stack.append(f"{',' if len(item.then) == 1 else ''}), split={item.split!r})")
            for k in range(len(item.then) - 1, -1, -1):
                stack.append(item.then[k])
                if k:
                    stack.append(", ")
        return "".join(parts)

    @classmethod
    def path(cls, defenders: Sequence[int], *, names: Sequence[str] | None = None, leave: int = 1) -> Target:
        """A plan without splits: the territories of ``defenders`` in order (a sequence: a list, a 1-d array)."""
        if not is_sequence(defenders):
            raise InvalidArgumentError(f"defenders must be a sequence of army counts, got {shown(defenders)}")
        defenders = list(defenders)
        if not defenders:
            raise InvalidArgumentError("a path needs at least one territory")
        labels = list(names) if names is not None else [None] * len(defenders)
        if len(labels) != len(defenders):
            raise InvalidArgumentError(f"names must have one entry per territory ({len(defenders)}), got {len(labels)}")
        node: Target | None = None
        for d, label in zip(reversed(defenders), reversed(labels), strict=True):
            node = cls(d, label, leave=leave, then=() if node is None else (node,))
        assert node is not None
        return node

    def shares(self, moving_on: int) -> tuple[int, ...]:
        """Armies each child attacks with when ``moving_on`` armies move on.

        Raises
        ------
        InvalidArgumentError
            If a split function returns a bad allotment.
        """
        n = len(self.then)
        if n == 0:
            return ()
        split = self.split
        if isinstance(split, str):  # even; the first children get the remainder
            base, extra = divmod(moving_on, n)
            return tuple(base + (i < extra) for i in range(n))
        if callable(split):
            shares = tuple(split(moving_on))
            if (
                len(shares) != n
                or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0 for s in shares)
                or sum(shares) > moving_on
            ):
                raise InvalidArgumentError(
                    f"split function of {self._label_hint()} returned {shares!r} for {moving_on} armies: "
                    f"need {n} non-negative integers summing to at most {moving_on}"
                )
            return tuple(int(s) for s in shares)
        left = moving_on
        fixed: list[int | None] = []
        for share in split:
            if share is None:
                fixed.append(None)
            else:
                take = min(share, left)
                fixed.append(take)
                left -= take
        return tuple(left if share is None else share for share in fixed)

    def _label_hint(self) -> str:
        return repr(self.name) if self.name else f"Target({self.defenders})"

    def walk(self) -> Iterator[Target]:
        """The targets of the plan, depth first (this one first).

        With a stack of its own rather than by recursion, so that a path of
        thousands of territories is walked as a short one is.
        """
        stack: list[Target] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.then))


def _labeled(root: Target) -> list[tuple[str, Target, str | None]]:
    """``(label, target, parent label)`` depth first; labels default to positions."""
    out: list[tuple[str, Target, str | None]] = []
    stack: list[tuple[Target, str, str | None]] = [(root, "", None)]  # (depth first, without recursion)
    while stack:
        node, position, parent = stack.pop()
        label = node.name if node.name else (position or "root")
        out.append((label, node, parent))
        children = [(child, f"{position}.{i}" if position else str(i), label) for i, child in enumerate(node.then, 1)]
        stack.extend(reversed(children))
    labels = [label for label, _, _ in out]
    if len(set(labels)) != len(labels):
        duplicates = sorted({label for label in labels if labels.count(label) > 1})
        raise InvalidArgumentError(f"target names must be unique within a plan, got duplicates {duplicates}")
    return out


def _label_cost(root: Target) -> tuple[int, int]:
    """``(targets, bytes)`` of the labels :func:`_labeled` would make, counted without making them.

    A target without a name is labelled by its position (``"1.2.1"``), which is as long as its depth: a path
    of ``n`` unnamed targets has labels of ``n**2`` characters in all (``Target.path([1] * 40_000)`` took 1.5
    GiB before its cost was checked).
    """
    count, size = 0, 0
    stack: list[tuple[Target, int]] = [(root, 0)]
    while stack:
        node, length = stack.pop()
        count += 1
        size += 64 + (len(node.name) if node.name else max(length, 4))  # (a str object, its tuple and list entry)
        for i, child in enumerate(node.then, 1):
            stack.append((child, length + len(str(i)) + (1 if length else 0)))
    return count, size


def _children_value(node: Target, y: int, success: dict[int, Vector], exact: bool, skip: int | None = None) -> Any:
    """Product of the children's success for ``y`` armies holding ``node`` (child ``skip`` left out)."""
    value: Any = Fraction(1) if exact else 1.0
    shares = node.shares(max(y - node.leave, 0))
    for i, (child, share) in enumerate(zip(node.then, shares, strict=True)):
        if i != skip:
            value = value * success[id(child)][share]
    return value


#: Seconds per Python step of the per-army loops of a plan (children's values, shares).
_LOOP_SECONDS = 2e-6


def plan_cost(plan: Target, attackers: int, rules: CombatRules, exact: bool, *, forward: bool) -> tuple[float, float]:
    """``(bytes, seconds)`` of :func:`success_functions` (and, if ``forward``, :class:`PlanResult`'s forward pass)."""
    (X,) = capped(attackers)
    nodes = list(plan.walk())
    memory = seconds = 0.0
    for node in nodes:
        m, t = backward_cost(X, node.defenders, 0, 1, rules, exact)
        memory, seconds = max(memory, m), seconds + t + _LOOP_SECONDS * (X + 1) * (1 + len(node.then))
    kept = len(nodes) * (3 if forward else 1)  # the success vectors, and the forces and captures
    memory += kept * (X + 1) * (8 if not exact else 108 + (X + 1) * 2)
    if forward:
        m, t = battles_cost([(X, node.defenders) for node in nodes], rules, exact)
        memory, seconds = memory + m, seconds + 2 * t + _LOOP_SECONDS * (X + 1) * len(nodes)
    return memory, seconds


def success_functions(plan: Target, attackers: int, kern: Kernel, exact: bool) -> dict[int, Vector]:
    """The backward pass: ``F_v(x)`` for ``x = 0..attackers`` and every node ``v`` of ``plan``.

    Keyed by ``id(v)``; one backward sweep of the battle chain per node,
    leaves first (see the module docstring).  ``F_v(0) = 0``: nobody attacks.
    """
    X = attackers
    success: dict[int, Vector] = {}
    for node in reversed(list(plan.walk())):  # depth first, reversed: every child before its parent
        if len(node.then) == 1 and node.split == "even":  # a path: the one child gets everyone moving on
            win = success[id(node.then[0])][np.maximum(np.arange(X + 1) - min(node.leave, X + 1), 0)]
        else:
            win = np.array([_children_value(node, y, success, exact) for y in range(X + 1)], dtype=object)
        win[0] = 0
        d = node.defenders
        if exact:
            values = backward_exact(X, d, 0, kern, [[w] for w in win], [[[0]] * (d + 1)], [0])
            column = np.array([values[x][d][0] for x in range(X + 1)], dtype=object)
            column[0] = Fraction(0)
        else:
            win_value = np.array(win, float)[:, None]
            column = backward_float(X, d, 0, kern, win_value, np.zeros((1, d + 1, 1)), np.zeros(1))[:, d, 0].copy()
            column[0] = 0.0
        success[id(node)] = column
    return success


class PlanResult:
    """The exact outcome of a tree plan; build it with :func:`plan_conquest`.

    Attributes
    ----------
    attackers : int
        Armies able to attack at the start.
    plan : Target
        The root of the plan.
    labels : list of str
        The targets' labels, depth first.

    Examples
    --------
    >>> result = PlanResult(6, Target(2, "Peru", then=[Target(1, "Argentina")]))
    >>> result
    PlanResult(6, 2 targets)
    >>> result.labels, round(result.win_probability, 4)
    (['Peru', 'Argentina'], 0.8396)
    """

    def __init__(self, attackers: int, plan: Target, *, exact: bool = False, rules: object = None) -> None:
        self.attackers = check_int("attackers", attackers, minimum=0)
        if not isinstance(plan, Target):
            raise InvalidArgumentError(f"plan must be a Target, got {shown(plan)}")
        self.plan = plan
        self.exact = check_exact(exact)
        self.rules: CombatRules = resolve_rules(rules)
        X = self.attackers
        memory, seconds = plan_cost(plan, X, self.rules, self.exact, forward=True)
        targets, label_bytes = _label_cost(plan)
        unnamed = label_bytes > 64 * 2**20  # (only then is the hint worth giving)
        check_cost(  # before the labels are made: those of a long path of unnamed targets grow with its square
            lambda: (
                f"plan_conquest(attackers={shown(X)}, plan=<{targets} targets, at most "
                f"{shown(max(node.defenders for node in plan.walk()))} defenders>"
                f"{', exact=True' if self.exact else ''})"
            ),
            memory=memory + label_bytes,
            seconds=seconds + label_bytes * 2e-9,
            hint=(USE_FLOATS if self.exact else "")
            + (
                "name the targets (a long path of unnamed ones is labelled by positions as long as it); "
                if unnamed
                else ""
            ),
        )
        self._nodes = _labeled(plan)
        self.labels = [label for label, _, _ in self._nodes]
        self._kern = kernel(self.rules)
        self._success = success_functions(plan, X, self._kern, self.exact)
        # Forward: plain marginals, and weighted by the success of the other branches.
        start = zero_vector(X + 1, self.exact)
        start[X] = 1
        self._force: dict[str, Vector] = {}
        self._won: dict[str, Vector] = {}
        self._leaf_joint: dict[str, Vector] = {}
        self._forward(plan, self.labels[0], start, start.copy())

    # -- the forward pass -----------------------------------------------------
    def _forward(self, root: Target, label: str, force: Vector, weighted: Vector) -> None:
        """Each target's armies arriving (plain, and weighted by the other branches' success), from the root down.

        A target's inputs come from its parent alone, so the targets are taken
        from a stack of their own (not by recursion: a path of thousands of
        territories is walked as a short one is).
        """
        X = self.attackers
        children: dict[str, list[str]] = {}
        for lab, _, parent in self._nodes:
            if parent is not None:
                children.setdefault(parent, []).append(lab)
        stack = [(root, label, force, weighted)]
        while stack:
            node, label, force, weighted = stack.pop()
            force[0] = 0
            weighted[0] = 0
            self._force[label] = force
            won = attack_with(force, node.defenders, self._kern, self.exact)
            won_weighted = attack_with(weighted, node.defenders, self._kern, self.exact)
            self._won[label] = won
            if not node.then:
                self._leaf_joint[label] = won_weighted
                continue
            for i, (child, child_label) in enumerate(zip(node.then, children[label], strict=True)):
                child_force = zero_vector(X + 1, self.exact)
                child_weighted = zero_vector(X + 1, self.exact)
                for y in range(1, X + 1):
                    if not (won[y] or won_weighted[y]):
                        continue
                    share = node.shares(max(y - node.leave, 0))[i]
                    child_force[share] += won[y]
                    child_weighted[share] += won_weighted[y] * _children_value(
                        node, y, self._success, self.exact, skip=i
                    )
                stack.append((child, child_label, child_force, child_weighted))

    # -- results --------------------------------------------------------------
    def __repr__(self) -> str:
        return f"PlanResult({self.attackers}, {len(self.labels)} targets)"

    @cached_property
    def win_probability(self) -> Any:
        """Probability that every target of the plan falls (the plan is won)."""
        return plain_probability(self._success[id(self.plan)][self.attackers], self.exact)

    @property
    def success_probability(self) -> Any:
        """Deprecated: the same number as :attr:`win_probability`, with a ``DeprecationWarning``."""
        warn_deprecated("PlanResult.success_probability", "PlanResult.win_probability")
        return self.win_probability

    def leaf_distribution(self, label: str) -> pd.Series:
        """Armies holding leaf ``label`` at the end, given that the whole plan succeeds.

        Raises
        ------
        InvalidArgumentError
            If ``label`` is not a leaf of the plan.
        UndefinedStatisticError
            If the plan cannot succeed.
        """

        if label not in self._leaf_joint:
            leaves = sorted(self._leaf_joint)
            raise InvalidArgumentError(f"{label!r} is not a leaf of the plan; leaves are {leaves}")
        total = self.win_probability
        if not total > 0:
            raise UndefinedStatisticError(f"the plan cannot succeed (probability {total}); no leaf distribution")
        return armies_given(self._leaf_joint[label], total, self.exact)

    @property
    def leaves(self) -> list[str]:
        """Labels of the plan's leaves."""
        return [label for label, node, _ in self._nodes if not node.then]

    def node_table(self) -> pd.DataFrame:
        """One row per target, depth first.

        Columns: ``parent``, ``defenders``, ``leave``, ``attack_probability``
        (the target is attacked at all), ``expected_attackers`` and
        ``std_attackers`` (given that it is attacked), ``capture_probability``
        and ``subtree_success_probability`` (this target and all after it
        fall).
        """
        import pandas as pd

        rows = []
        for label, node, parent in self._nodes:
            force = self._force[label]
            attacked = sum(force)
            mean: Any = None
            sd: float | None = None
            if attacked > 0:
                mean, sd = mean_sd(force / attacked)
            rows.append(
                {
                    "parent": parent,
                    "defenders": node.defenders,
                    "leave": node.leave,
                    "attack_probability": plain_probability(attacked, self.exact),
                    "expected_attackers": mean,
                    "std_attackers": sd,
                    "capture_probability": plain_probability(sum(self._won[label]), self.exact),
                    "subtree_success_probability": plain_probability(sum(force * self._success[id(node)]), self.exact),
                }
            )
        return pd.DataFrame(rows, index=pd.Index(self.labels, name="target"))


def plan_conquest(attackers: int, plan: Target, *, exact: bool = False, rules: object = None) -> PlanResult:
    """Evaluate a tree plan exactly.

    Parameters
    ----------
    attackers : int
        Armies able to attack the plan's first target (their territory holds
        one more).
    plan : Target
        The root target; see :class:`Target`.
    exact : bool, default False
        Fractions instead of floats.
    rules : CombatRules, optional
        Combat variant.

    Returns
    -------
    PlanResult
        ``win_probability``, ``leaf_distribution(label)``,
        ``node_table()``.

    Examples
    --------
    South America from Central America: Venezuela (2), then Peru (1) and
    Brazil (2) with the rest split evenly, then Argentina (1) from Peru.

    >>> plan = Target(2, "Venezuela", then=[
    ...     Target(1, "Peru", then=[Target(1, "Argentina")]), Target(2, "Brazil")])
    >>> result = plan_conquest(10, plan)
    >>> round(result.win_probability, 4)
    0.5537
    >>> result.leaves
    ['Argentina', 'Brazil']
    """
    return PlanResult(attackers, plan, exact=exact, rules=rules)
