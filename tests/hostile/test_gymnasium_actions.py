"""Issue 22, part 2: the Gymnasium environment takes an id in every form its action space does, and nothing else.

``RiskEnv.step`` takes a Python int, a NumPy integer, a 0-d NumPy integer array and a 0-d integer tensor (by
``.item()``), as ``Discrete.contains`` does; what is not an id of the space raises ``InvalidArgumentError`` and
changes nothing, whatever the illegal-id policy (an id of the space outside the mask is the policy's: a lost
episode by default).  Bools, which ``Discrete.contains`` takes for 0 and 1, are refused as everywhere in riskmath.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from game_helpers import FakeTensor

from riskmath.envs.gymnasium import RiskEnv
from riskmath.errors import InvalidArgumentError

JUNK = [
    True,
    np.bool_(True),
    np.array(True),
    np.float64(272.0),
    np.array(272.0),
    np.array([272]),
    np.array([[272]]),
    FakeTensor(272.0),
    FakeTensor(True),
    FakeTensor(None),
    "272",
    272.0,
    complex(272),
]


@pytest.mark.parametrize("junk", JUNK)
@pytest.mark.parametrize("mode", ["lose", "raise"])
def test_what_is_not_an_id_is_refused_and_changes_nothing(junk, mode):
    env = RiskEnv(opponents=["random"], board="south_america_africa", max_turns=6, illegal_action=mode)
    env.reset(seed=5)
    node = env.node
    assert env.action_masks()[272]  # the same value as an int is legal here
    with pytest.raises(InvalidArgumentError, match="action index must be an integer"):
        env.step(junk)
    assert env.node is node
    env.step(272)  # and the episode goes on
