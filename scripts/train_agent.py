"""Train a policy by imitating the expert's search (extra ``train``: PyTorch) and export it as a
policy file (``policy:FILE.onnx``).

The datasets are folders written by ``unokit dataset`` (docs/research.md). The target of each
decision is the expert's visit distribution over the legal actions (``visits`` normalised); the
model is a multilayer perceptron over the environments' observation (scaled by
``1 / Encoding.high``, inside the exported file) whose illegal scores are masked before the
softmax; the loss is the cross-entropy to the visit distribution. A twentieth of the hands is
held out to report how often the policy's choice is the expert's most visited action.

    python scripts/train_agent.py DATASET [DATASET ...] --out agent.onnx [--epochs 30] [--device cuda]

Several datasets are read as one: the expert's own hands and, for the rounds of DAgger that
``docs/research.md`` describes, hands the policy played itself while the expert labelled them
(``unokit dataset --play policy:agent.onnx``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from unokit.bots.policy import export_mlp
from unokit.dataset.builder import read_table
from unokit.encoding import Encoding


def load(folders: list[Path]) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Observations, masks, visit targets and hand numbers of every row of ``folders``."""
    parts: dict[str, list[np.ndarray]] = {"obs": [], "mask": [], "target": [], "hand": []}
    meta: dict[str, str] = {}
    for k, folder in enumerate(folders):
        table = read_table(folder)
        meta = {key.decode(): value.decode() for key, value in (table.schema.metadata or {}).items()}
        size, actions = int(meta["unokit.observation_size"]), int(meta["unokit.num_actions"])
        rows = table.num_rows
        obs = table.column("observation").combine_chunks().values.to_numpy().reshape(rows, size)
        mask = table.column("legal_mask").combine_chunks().values.to_numpy(zero_copy_only=False).reshape(rows, actions)
        visits = table.column("visits").combine_chunks().values.to_numpy().reshape(rows, actions).astype(np.float32)
        visits *= mask
        total = visits.sum(axis=1, keepdims=True)
        keep = total[:, 0] > 0
        parts["obs"].append(obs[keep].astype(np.float32))
        parts["mask"].append(mask[keep])
        parts["target"].append(visits[keep] / total[keep])
        # hands of different datasets kept apart for the split
        parts["hand"].append(table.column("hand").to_numpy()[keep] * len(folders) + k)
    return {name: np.concatenate(values) for name, values in parts.items()}, meta


class Mlp(nn.Module):
    def __init__(self, inputs: int, hidden: int, outputs: int, layers: int) -> None:
        super().__init__()
        widths = [inputs] + [hidden] * layers
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
        self.head = nn.Linear(widths[-1], outputs)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.hidden:
            x = torch.relu(layer(x))
        logits: torch.Tensor = self.head(x)
        return logits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=2048)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    data, meta = load(args.datasets)
    variant, players = meta["unokit.variant"], int(meta["unokit.players"])
    encoding = Encoding(variant, players, int(meta["unokit.history"]))
    scale = (1.0 / np.maximum(encoding.high, 1.0)).astype(np.float32)
    held = (data["hand"] % 20) == 0
    device = torch.device(args.device)

    def tensors(rows: np.ndarray) -> tuple[torch.Tensor, ...]:
        return (
            torch.from_numpy(data["obs"][rows] * scale).to(device),
            torch.from_numpy(data["mask"][rows]).to(device),
            torch.from_numpy(data["target"][rows]).to(device),
        )

    train_x, train_m, train_t = tensors(~held)
    test_x, test_m, test_t = tensors(held)
    model = Mlp(encoding.size, args.hidden, encoding.num_actions, args.layers).to(device)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, args.epochs)
    generator = torch.Generator(device="cpu").manual_seed(args.seed)

    def loss_of(x: torch.Tensor, m: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        logits = model(x).masked_fill(~m, -1e9)
        return -(t * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()

    started = time.time()
    report: dict[str, object] = {"rows": len(data["obs"]), "held_out": int(held.sum())}
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(train_x), generator=generator).to(device)
        for k in range(0, len(order), args.batch):
            rows = order[k : k + args.batch]
            loss = loss_of(train_x[rows], train_m[rows], train_t[rows])
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
        schedule.step()
        model.eval()
        with torch.no_grad():
            test_loss = float(loss_of(test_x, test_m, test_t))
            choice = model(test_x).masked_fill(~test_m, -1e9).argmax(dim=1)
            agree = float((choice == test_t.argmax(dim=1)).float().mean())
        line = f"epoch {epoch + 1}: held-out loss {test_loss:.4f}, agrees with the expert {100 * agree:.1f}%"
        print(line, flush=True)
        report.update(epoch=epoch + 1, held_out_loss=test_loss, agreement=agree)
    model = model.cpu()
    layers = [(layer.weight.detach().numpy(), layer.bias.detach().numpy()) for layer in [*model.hidden, model.head]]
    export_mlp(
        args.out,
        layers,
        variant=variant,
        players=players,
        history=encoding.history,
        activation="relu",
        scale=scale,
        description=f"imitation of the ismcts_fast search, trained on {', '.join(str(d) for d in args.datasets)}",
    )
    report["seconds"] = round(time.time() - started, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
