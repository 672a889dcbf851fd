#!/usr/bin/env bash
# HEAR's own tools on msbench's probe set (README "Probing speech language models"):
#   scripts/hear_round_trip.sh HEAR_CHECKOUT [PROBES_FOLDER]
# HEAR_CHECKOUT: a clone of github.com/dwsmart32/HEAR; its Python (HEAR_PYTHON, default python3)
# needs python-dotenv, pyyaml and tqdm. PROBES_FOLDER: default results/probes.
# Runs HEAR's inference.py --validate-input-only on hear_input.jsonl, then scores two answerers
# (perfect, always A) with HEAR's eval_hear.py and eval_hear_vera.py and with msbench probes-score.
set -euo pipefail
hear=${1:?usage: scripts/hear_round_trip.sh HEAR_CHECKOUT [PROBES_FOLDER]}
probes=$(cd "${2:-results/probes}" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
python=${HEAR_PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$repo/.venv/bin/python" - "$probes/hear_input.jsonl" "$work" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
for name, letter in (("perfect", None), ("always_a", "A")):
    results = [{**r, "response": json.dumps({"Answer": letter or r["ground_truth"]})} for r in rows]
    with open(f"{sys.argv[2]}/{name}.json", "w", encoding="utf-8") as f:
        json.dump(results, f)
EOF

echo "[hear] inference.py --validate-input-only"
(cd "$hear" && "$python" inference.py --model none --input "$probes/hear_input.jsonl" \
  --validate-input-only | tail -2)
for answerer in perfect always_a; do
  echo "[hear] $answerer: eval_hear.py, eval_hear_vera.py"
  (cd "$hear" && "$python" hear/eval_hear.py --results "$work/$answerer.json" --out "$work/$answerer.eval.json" | head -1)
  (cd "$hear" && "$python" hear/eval_hear_vera.py --results "$work/$answerer.json" --out "$work/$answerer.vera.json" | head -1)
  echo "[msbench] $answerer: probes-score"
  "$repo/.venv/bin/msbench" probes-score --answers "$work/$answerer.json" \
    --items "$probes/items.jsonl" --out "$work/$answerer.msbench.json" > /dev/null
  "$repo/.venv/bin/python" -c "import json,sys; r=json.load(open(sys.argv[1])); \
print(f\"  accuracy {100*r['accuracy']:.2f}%  ver_a {100*r['ver_a']:.1f}%  read_by {r['read_by']}\")" \
    "$work/$answerer.msbench.json"
done
