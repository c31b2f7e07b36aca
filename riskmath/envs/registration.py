"""Gymnasium's registration of ``"riskmath/Risk-v0"``, light enough to run while Gymnasium itself is imported.

:func:`register_envs` is the function that the entry point group
``gymnasium.envs`` of riskmath's package metadata names
(``pyproject.toml``: ``[project.entry-points."gymnasium.envs"]``, key
``riskmath``).  Gymnasium 0.29 calls every function of that group at the end
of ``import gymnasium`` (``gymnasium.envs.registration.load_plugin_envs``),
under the namespace given by the key, so that after ``pip install
riskmath[gymnasium]`` the id works in ``gymnasium.make`` with no import of
riskmath first.  Gymnasium 1.0 dropped that plugin system: there the id needs
the module before it, ``gymnasium.make("riskmath.envs.gymnasium:riskmath/Risk-v0")``
(Gymnasium imports the module named before the colon, and importing
``riskmath.envs.gymnasium`` registers the id), or an ``import
riskmath.envs.gymnasium`` first.

Because it runs inside ``import gymnasium``, this module imports neither
Gymnasium at its top nor the environment: the registration names the
environment by the string :data:`ENTRY_POINT`, which ``gymnasium.make``
imports on first use.  (It does import the ``riskmath`` package, as any
module of the package does: about 0.4 s of CPU once per process.)

The registered ``max_episode_steps`` (:data:`MAX_EPISODE_STEPS`) is the
episode budget that matches the environment's default turn cap: 200
player-turns of at most :data:`TURN_STEPS` decisions each, the budget the
OpenSpiel game gives a player-turn.  The environment ends a game at its turn
cap itself (``truncated``) long before that in ordinary play (a learner
playing at random on the classic board against two agents takes about 2,600
steps in 200 player-turns); Gymnasium's ``TimeLimit`` is the backstop for a
policy that makes a turn last without end, which the rules allow (every
attack costs an army, but armies grow).  ``gymnasium.make(...,
max_episode_steps=k)`` sets another; a smaller ``max_turns`` makes the
environment end games earlier whatever the budget.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_TURNS", "ENTRY_POINT", "ENV_ID", "MAX_EPISODE_STEPS", "TURN_STEPS", "register_envs"]

#: The id :func:`register_envs` registers.
ENV_ID = "riskmath/Risk-v0"
#: The environment class, as ``"module:attribute"`` (imported by ``gymnasium.make`` on first use).
ENTRY_POINT = "riskmath.envs.gymnasium:RiskEnv"
#: The environment's default turn cap (player-turns), as ``RiskEnv(max_turns=200)``.
DEFAULT_MAX_TURNS = 200
#: The decisions budgeted for one player-turn (as the OpenSpiel game's ``TURN_DECISIONS``).
TURN_STEPS = 1000
#: Gymnasium's ``TimeLimit`` for the registered id: the default turn cap times the budget of a player-turn.
MAX_EPISODE_STEPS = DEFAULT_MAX_TURNS * TURN_STEPS


def register_envs() -> None:
    """Register ``"riskmath/Risk-v0"`` with Gymnasium (again is harmless); Gymnasium's plugin hook.

    Examples
    --------
    >>> import gymnasium
    >>> register_envs()
    >>> gymnasium.spec(ENV_ID).max_episode_steps
    200000
    """
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(id=ENV_ID, entry_point=ENTRY_POINT, max_episode_steps=MAX_EPISODE_STEPS)
