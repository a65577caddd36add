"""Reinforcement-learning environments on the unokit engine (extra ``rl``).

* :mod:`unokit.envs.pettingzoo`: AEC environments for every variant, 2-10 agents
  (``env(variant="flip", players=4)``, versioned names ``uno_classic_v0``, ``uno_flip_v0``,
  ``uno_attack_v0``, ``uno_flip_attack_v0``);
* :mod:`unokit.envs.gymnasium`: one seat against unokit bots, registered as
  ``unokit/Classic-v0``, ``unokit/Flip-v0``, ``unokit/Attack-v0`` and ``unokit/FlipAttack-v0``
  (importing this package registers them);
* :mod:`unokit.encoding`: the observation layout and the action ids both share.

The layout and the action table are documented in ``docs/envs.md``.
"""

from __future__ import annotations

from ..encoding import Encoding
from .gymnasium import GYM_IDS, UnoEnv, register_envs
from .pettingzoo import ENV_NAMES, UnoAECEnv, env, raw_env
from .session import Session

__all__ = ["ENV_NAMES", "GYM_IDS", "Encoding", "Session", "UnoAECEnv", "UnoEnv", "env", "raw_env", "register_envs"]
