#!/usr/bin/env bash
# The recipe of the shipped learned agent (docs/research.md, "The learned agent"): an expert
# dataset, imitation, one round of DAgger (the policy plays, the expert labels), imitation
# again, then each policy measured against heuristic on the classic-2 suite.
#
#   scripts/train_shipped_agent.sh OUT_DIR
#
# Sizes come from the environment (the defaults are the shipped agent's): HANDS0 expert hands,
# HANDS1 hands of the policy, ITERATIONS of the expert's search per decision, WORKERS processes,
# EPOCHS of training, DEALS of the suite for the check at the end. UNOKIT runs the command
# (default: the project's .venv/bin/unokit), PYTHON the training script; KEEP, when set, is a
# folder that gets a copy of each policy and result as soon as it is made.
set -euo pipefail
out=${1:?give an output folder}
HANDS0=${HANDS0:-12000}
HANDS1=${HANDS1:-6000}
ITERATIONS=${ITERATIONS:-1000}
WORKERS=${WORKERS:-2}
EPOCHS=${EPOCHS:-25}
DEALS=${DEALS:-2000}
UNOKIT=${UNOKIT:-.venv/bin/unokit}
PYTHON=${PYTHON:-.venv/bin/python}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
stamp() { echo "[$(date +%T)] $*"; }
keep() { if [ -n "${KEEP:-}" ]; then cp "$@" "$KEEP"/; fi; }
stamp "compiling the search (one hand)"
$UNOKIT dataset "$out/warmup" --hands 1 --iterations 10 --no-progress
stamp "expert dataset: $HANDS0 hands at $ITERATIONS iterations"
$UNOKIT dataset "$out/d0" --hands "$HANDS0" --iterations "$ITERATIONS" --shard-hands 250 --workers "$WORKERS" --seed 1 --no-progress
stamp "imitation"
$PYTHON "$here/train_agent.py" "$out/d0" --out "$out/a0.onnx" --epochs "$EPOCHS"
keep "$out/a0.onnx"
stamp "DAgger: $HANDS1 hands played by the policy, labelled by the expert"
$UNOKIT dataset "$out/d1" --play "policy:$out/a0.onnx" --hands "$HANDS1" --iterations "$ITERATIONS" --shard-hands 250 --workers "$WORKERS" --seed 2 --no-progress
stamp "imitation of both"
$PYTHON "$here/train_agent.py" "$out/d0" "$out/d1" --out "$out/a1.onnx" --epochs "$EPOCHS"
keep "$out/a1.onnx"
for agent in a0 a1; do
  stamp "eval $agent"
  $UNOKIT eval "policy:$out/$agent.onnx" --against heuristic --deals "$DEALS" --workers "$WORKERS" --no-progress --json "$out/eval-$agent.json"
  keep "$out/eval-$agent.json"
done
stamp "done"
