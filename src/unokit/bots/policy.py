"""A trained policy as a bot: ``policy:PATH.onnx`` wherever a bot name goes (extra ``policy``).

A policy file is an ONNX model that maps observation vectors (:mod:`unokit.encoding`) to one
score per action id. Its contract:

* one input, ``observation``: ``float32``, shape ``(batch, size)``, the raw vector the
  environments give (a model trained on scaled observations does its scaling inside);
* one output, ``logits``: ``float32``, shape ``(batch, num_actions)``;
* metadata (``metadata_props``): ``unokit.variant``, ``unokit.players``, ``unokit.history``,
  ``unokit.observation_size`` and ``unokit.num_actions``, which must match the game it plays.

:class:`PolicyBot` builds the environments' observation from its :class:`~unokit.View` (the
history block from the game's public record of plays, :meth:`~unokit.View.played`) exactly as
the environments do, runs the model with onnxruntime on the CPU (one thread) and plays the legal
id with the highest score (the lowest id on a tie): no randomness, so its play is reproducible
whatever its seed. Offered a Jump-In (``jump_in=true``), it builds the observation of the
environments' offer (``jump_offer`` set; its jumps and ``pass`` legal) and jumps when the model
prefers a jump to ``pass``; out of turn it otherwise calls its own late UNO and catches, as every
bot does by default.

:func:`export_mlp` writes such a file from the weights of a multilayer perceptron with the
``onnx`` package alone: no PyTorch is needed to export, nor to play.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core.actions import PLAY, Action
from ..core.observation import View
from ..encoding import Encoding
from . import POLICY_PREFIX
from .base import Bot

#: The metadata keys a policy file carries (see the module docstring).
META_KEYS = ("unokit.variant", "unokit.players", "unokit.history", "unokit.observation_size", "unokit.num_actions")
#: The activations :func:`export_mlp` writes between layers.
ACTIVATIONS = {"tanh": "Tanh", "relu": "Relu"}


class PolicyError(ValueError):
    """A policy file that cannot be used: missing, not an ONNX model of the contract, or made for
    another game than the one it is asked to play."""


@dataclass(frozen=True)
class PolicyInfo:
    """What a policy file says it plays."""

    variant: str
    players: int
    history: int
    observation_size: int
    num_actions: int


def policy_path(spec: str) -> Path | None:
    """The file of a ``policy:PATH`` spec, ``None`` for any other spec; raise
    :class:`PolicyError` when the path is missing."""
    if not spec.startswith(POLICY_PREFIX):
        return None
    path = spec[len(POLICY_PREFIX) :].strip()
    if not path:
        raise PolicyError("write a policy bot as 'policy:PATH.onnx', e.g. 'policy:runs/ppo.onnx'")
    return Path(path).expanduser()


class Policy:
    """A loaded policy file: :meth:`scores` runs it on one observation."""

    def __init__(self, path: Path) -> None:
        try:
            import onnxruntime
        except ImportError:
            raise PolicyError(
                "a policy bot needs the optional 'policy' extra (onnxruntime): pip install 'unokit[policy]'"
            ) from None
        if not path.is_file():
            raise PolicyError(f"no policy file at {str(path)!r}")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # one decision at a time: threads only cost here
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for a bad file
            raise PolicyError(f"{str(path)!r} is not an ONNX model onnxruntime can run: {exc}") from None
        self.path = path
        meta = self.session.get_modelmeta().custom_metadata_map
        missing = [key for key in META_KEYS if key not in meta]
        if missing:
            raise PolicyError(f"{str(path)!r} is not a unokit policy: its metadata lacks {', '.join(missing)}")
        try:
            self.info = PolicyInfo(
                meta["unokit.variant"],
                int(meta["unokit.players"]),
                int(meta["unokit.history"]),
                int(meta["unokit.observation_size"]),
                int(meta["unokit.num_actions"]),
            )
            self.encoding = Encoding(self.info.variant, self.info.players, self.info.history)
        except ValueError as exc:
            raise PolicyError(f"{str(path)!r} has bad unokit metadata: {exc}") from None
        enc = self.encoding
        if (enc.size, enc.num_actions) != (self.info.observation_size, self.info.num_actions):
            raise PolicyError(
                f"{str(path)!r} expects {self.info.observation_size} observation values and "
                f"{self.info.num_actions} actions; {enc.variant} with {enc.players} seats has {enc.size} and "
                f"{enc.num_actions}"
            )
        inputs = [i.name for i in self.session.get_inputs()]
        outputs = [o.name for o in self.session.get_outputs()]
        if inputs != ["observation"] or "logits" not in outputs:
            raise PolicyError(f"{str(path)!r} must map an input 'observation' to an output 'logits'")
        self._check_shapes()

    def _check_shapes(self) -> None:
        """Refuse a graph whose input or output does not fit the encoding: the declared shapes
        (a dimension may be left symbolic), then one run on an observation of the encoding's
        size, which must give one score per action id."""
        import onnxruntime

        enc, name = self.encoding, repr(str(self.path))
        game = f"{enc.variant} with {enc.players} seats"
        given = self.session.get_inputs()[0]
        shape = list(given.shape)
        if given.type != "tensor(float)" or len(shape) != 2 or not _fits(shape[1], enc.size):
            raise PolicyError(
                f"{name} takes an 'observation' of {given.type} {_shape(shape)}; {game} gives float32 "
                f"(batch, {enc.size})"
            )
        declared = list(next(o for o in self.session.get_outputs() if o.name == "logits").shape)
        if len(declared) != 2 or not _fits(declared[1], enc.num_actions):
            raise PolicyError(
                f"{name} gives 'logits' of shape {_shape(declared)}; {game} has {enc.num_actions} action ids"
            )
        quiet = onnxruntime.RunOptions()
        quiet.log_severity_level = 4  # the refusal below says what went wrong, once
        try:
            out = self.session.run(["logits"], {"observation": np.zeros((1, enc.size), np.float32)}, quiet)
        except Exception as exc:  # onnxruntime's own exception types: the graph does not fit
            reason = str(exc).strip().splitlines()[0][:200]
            raise PolicyError(f"{name} cannot run on an observation of {enc.size} values ({game}): {reason}") from None
        got = np.shape(out[0])
        if tuple(got) != (1, enc.num_actions):
            raise PolicyError(
                f"{name} gives {_shape(list(got))} scores for one observation; {game} has {enc.num_actions} action ids"
            )

    def scores(self, observation: NDArray[np.float32]) -> NDArray[np.float32]:
        """The model's score of every action id for one observation vector."""
        out = self.session.run(["logits"], {"observation": observation.reshape(1, -1)})
        scores: NDArray[np.float32] = np.asarray(out[0], np.float32).reshape(-1)
        return scores

    def check_game(self, variant: str, players: int) -> None:
        """Raise :class:`PolicyError` unless this policy plays ``variant`` with ``players`` seats."""
        if (variant, players) != (self.info.variant, self.info.players):
            raise PolicyError(
                f"the policy {self.path.name} plays {self.info.variant} with {self.info.players} seats, "
                f"not {variant} with {players}"
            )


def _fits(dim: object, size: int) -> bool:
    """Whether a graph's dimension ``dim`` admits ``size``: it is ``size``, or left open (a
    name or nothing)."""
    return dim == size or dim is None or isinstance(dim, str)


def _shape(dims: list[Any]) -> str:
    """A shape as people read it: ``(batch, 152)``."""
    return "(" + ", ".join("?" if d is None else str(d) for d in dims) + ")"


_LOADED: dict[tuple[str, int, int], Policy] = {}


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """The policy in ``path``, loaded once per process (and again when the file changes)."""
    file = Path(path).expanduser()
    try:
        stat = file.stat()
    except OSError:
        raise PolicyError(f"no policy file at {str(file)!r}") from None
    key = (str(file.resolve()), stat.st_mtime_ns, stat.st_size)
    policy = _LOADED.get(key)
    if policy is None:
        policy = _LOADED[key] = Policy(file)
    return policy


class PolicyBot(Bot):
    """Plays the legal action a policy file scores highest (see the module docstring)."""

    name = "policy"

    def __init__(self, seed: int = 0, path: str | os.PathLike[str] = "") -> None:
        super().__init__(seed)
        self.policy = load_policy(path)
        self.encoding = self.policy.encoding

    def observation(self, view: View, offered: bool = False) -> NDArray[np.float32]:
        """The environments' observation vector of ``view``'s seat (``offered``: it is being
        offered a Jump-In)."""
        self.policy.check_game(view.variant, view.players)
        return self.encoding.observe(view, None, -1, offered)

    def choose(self, observation: NDArray[np.float32], legal: Sequence[int]) -> int:
        """The id among ``legal`` the policy scores highest (the lowest on a tie)."""
        scores = self.policy.scores(observation)
        return max(legal, key=lambda i: (scores[i], -i))

    def act(self, view: View) -> Action:
        legal = self.encoding.legal_ids(view)
        chosen = self.choose(self.observation(view), legal)
        action = self.encoding.decode(chosen, view.side, view.seat)
        assert action is not None  # a legal id always decodes
        return action

    def react(self, view: View) -> Action | None:
        enc = self.encoding
        jumps = [a for a in view.legal_actions() if a.kind == PLAY]
        if jumps and view.options.jump_in:
            ids = {enc.encode(a, view.seat): a for a in jumps}
            legal = sorted(i for i in ids if i is not None)
            chosen = self.choose(self.observation(view, offered=True), [*legal, enc.pass_id])
            if chosen != enc.pass_id:
                return ids[chosen]
        return super().react(view)


def export_mlp(
    path: str | os.PathLike[str],
    layers: Sequence[tuple[NDArray[Any], NDArray[Any]]],
    *,
    variant: str,
    players: int,
    history: int = 2,
    activation: str = "tanh",
    scale: NDArray[Any] | None = None,
    description: str = "",
) -> PolicyInfo:
    """Write a multilayer perceptron as a policy file (extra ``policy``: the ``onnx`` package).

    ``layers`` are ``(weight, bias)`` pairs in PyTorch's layout (``weight`` of shape ``(out,
    in)``), the last one giving the ``num_actions`` scores; ``activation`` (``tanh`` or
    ``relu``) goes between them. ``scale``, when given, multiplies the raw observation first
    (a policy trained on ``obs / encoding.high`` passes ``1 / high``). Returns what the file says
    it plays."""
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        raise PolicyError("exporting a policy needs the optional 'policy' extra (onnx)") from None
    if activation not in ACTIVATIONS:
        raise PolicyError(f"activation must be one of {', '.join(ACTIVATIONS)}, not {activation!r}")
    enc = Encoding(variant, players, history)
    if not layers:
        raise PolicyError("a policy needs at least one layer")
    width = enc.size
    nodes: list[Any] = []
    inits: list[Any] = []
    current = "observation"
    if scale is not None:
        factors = np.asarray(scale, np.float32).reshape(-1)
        if factors.shape != (enc.size,):
            raise PolicyError(f"scale must have one factor per observation value ({enc.size}), not {factors.shape}")
        inits.append(numpy_helper.from_array(factors, "scale"))
        nodes.append(helper.make_node("Mul", [current, "scale"], ["scaled"]))
        current = "scaled"
    for k, (weight, bias) in enumerate(layers):
        w = np.asarray(weight, np.float32)
        b = np.asarray(bias, np.float32).reshape(-1)
        if w.ndim != 2 or w.shape[1] != width or b.shape != (w.shape[0],):
            raise PolicyError(
                f"layer {k}: weight {w.shape} and bias {b.shape} do not take {width} inputs (weight is (out, in))"
            )
        inits += [numpy_helper.from_array(w, f"w{k}"), numpy_helper.from_array(b, f"b{k}")]
        last = k == len(layers) - 1
        out = "logits" if last else f"linear{k}"
        nodes.append(helper.make_node("Gemm", [current, f"w{k}", f"b{k}"], [out], transB=1))
        if not last:
            nodes.append(helper.make_node(ACTIVATIONS[activation], [out], [f"hidden{k}"]))
            current = f"hidden{k}"
        width = w.shape[0]
    if width != enc.num_actions:
        raise PolicyError(f"the last layer gives {width} scores; {variant} has {enc.num_actions} action ids")
    graph = helper.make_graph(
        nodes,
        "unokit_policy",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", enc.size])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", enc.num_actions])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="unokit")
    model.ir_version = 8  # readable by every onnxruntime since 1.10
    info = PolicyInfo(enc.variant, players, history, enc.size, enc.num_actions)
    values = (info.variant, info.players, info.history, info.observation_size, info.num_actions)
    for key, value in zip(META_KEYS, values, strict=True):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, str(value)
    if description:
        model.doc_string = description
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return info
