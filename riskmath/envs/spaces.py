"""What the Gymnasium and PettingZoo environments share: the game they play and their Gymnasium spaces.

Kept apart from both so that each needs only its own framework:
``riskmath.envs.gymnasium`` (extra ``riskmath[gymnasium]``) imports no
PettingZoo, and ``riskmath.envs.pettingzoo`` builds on the same spaces
(PettingZoo's spaces are Gymnasium's).
"""

from __future__ import annotations

import numpy as np

from riskmath._validation import missing_extra

try:
    from gymnasium import spaces
except ModuleNotFoundError as error:
    raise missing_extra(
        error, "riskmath.envs (the Gymnasium and PettingZoo environments)", "gymnasium", "gymnasium"
    ) from error

from riskmath._validation import check_bool, check_int, shown
from riskmath.envs.codec import ActionCodec
from riskmath.envs.observations import observation_layout
from riskmath.errors import InvalidArgumentError
from riskmath.game import Board, Game, Rules

__all__ = ["check_render_mode", "make_game", "mask_space", "observation_space", "vector_space"]


def make_game(
    players: int,
    rules: Rules | str | None,
    max_turns: int | None,
    board: Board | str | None,
    defender_decides: bool = False,
) -> Game:
    """The :class:`~riskmath.Game` an environment plays (checks every argument)."""
    players = check_int("players", players, minimum=2, maximum=6)
    if max_turns is not None:
        max_turns = check_int("max_turns", max_turns, minimum=1)
    if isinstance(board, str) and not board:  # "": the rules' board, as the OpenSpiel game's parameter has it
        board = None
    defender_decides = check_bool("defender_decides", defender_decides)
    return Game(players, rules, board, max_turns=max_turns, defender_decides=defender_decides)


def observation_space(game: Game, codec: ActionCodec, scaled: bool = True) -> spaces.Dict:
    """The per-agent ``Dict`` space: the observation vector (float32) and the int8 mask.

    Scaled, every entry of the vector lies in [0, 1]; unscaled, some entries
    have no bound of their own (turns, the value of the next set), so the
    vector's bound is the largest finite float32.
    """
    return spaces.Dict({"observation": vector_space(game, scaled), "action_mask": mask_space(codec)})


def vector_space(game: Game, scaled: bool) -> spaces.Box:
    """The ``Box`` of the observation vector: ``[0, 1]`` scaled, else ``[0, largest float32]``."""
    size = max(block.stop for block in observation_layout(game).values())
    top = 1.0 if scaled else float(np.finfo(np.float32).max)
    return spaces.Box(low=0.0, high=top, shape=(size,), dtype=np.float32)


def mask_space(codec: ActionCodec) -> spaces.Box:
    """The ``Box`` of an int8 action mask (1 for a legal id)."""
    return spaces.Box(low=0, high=1, shape=(codec.num_actions,), dtype=np.int8)


def check_render_mode(render_mode: str | None, modes: tuple[str, ...]) -> str | None:
    """``render_mode`` if it is None or one of ``modes``, else InvalidArgumentError naming it."""
    if render_mode is not None and render_mode not in modes:
        raise InvalidArgumentError(f"render_mode must be None or one of {', '.join(modes)}, got {shown(render_mode)}")
    return render_mode
