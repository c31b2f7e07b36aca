"""Integer actions and observations for learning agents (the foundation of framework environments).

:class:`ActionCodec` gives a game a fixed integer action space with legal
masks and integer chance-outcome ids; :func:`observation`,
:func:`observation_string` and :func:`information_state` give what one
player sees of a state, with the other players' cards and missions hidden.
See the documentation page "Learning agents" for the layouts.  No
framework (OpenSpiel, PettingZoo, Gymnasium) is imported here: the
environments on top are the modules :mod:`riskmath.envs.openspiel`
(``register()`` for ``pyspiel.load_game("python_risk")``),
:mod:`riskmath.envs.pettingzoo` and :mod:`riskmath.envs.gymnasium`, each
imported on its own.

Examples
--------
A random masked agent through the codec:

>>> import numpy as np, riskmath as rm
>>> from riskmath.envs import ActionCodec, CountChoice
>>> game = rm.Game(2, max_turns=4)
>>> codec, rng = ActionCodec(game), np.random.default_rng(0)
>>> state = game.new_initial_state(seed=0, auto_chance=True)
>>> while not state.is_terminal():
...     node = state
...     while node is state or isinstance(node, CountChoice):  # the move, then the count steps if any
...         node = codec.decode(node, rng.choice(np.flatnonzero(codec.mask(node))))
...     state = state.apply(node)
>>> state
<GameState turn 4, GAME_OVER, a draw>
"""

from riskmath.envs.codec import (
    BATTLE_ATTACKERS,
    BATTLE_DEFENDERS,
    BLOCK_ROLLS,
    COUNT_BITS,
    ActionCodec,
    BattleChance,
    CountChoice,
)
from riskmath.envs.observations import (
    information_state,
    information_state_layout,
    observation,
    observation_layout,
    observation_string,
)

__all__ = [
    "BATTLE_ATTACKERS",
    "BATTLE_DEFENDERS",
    "BLOCK_ROLLS",
    "COUNT_BITS",
    "ActionCodec",
    "BattleChance",
    "CountChoice",
    "information_state",
    "information_state_layout",
    "observation",
    "observation_layout",
    "observation_string",
]
