#!/usr/bin/env bash
# LoCoMo memory and context evaluation (README, "Memory"): for each prepared
# conversation of EVAL_DIR (default ../shared/eval/locomo-dev), a fresh data dir
# gets its turns as memories (memory import) and as one session (session
# import); `memory search --batch --k 10` and `session context --batch` answer its
# questions; the project's scorers print hit@k / recall@k, and the share of
# evidence turns the context builder keeps at 2,048 tokens, with plain BM25 and
# newest-first truncation beside them. Offline: no embedding server is used.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
eval_root=${EVAL_ROOT:-$here/../shared/eval}
data=${EVAL_DIR:-$eval_root/locomo-dev}
bin=${HERMES:-$here/build/bin/hermes}
[ -x "$bin" ] || { echo "eval: build hermes first (go tool task build), or set HERMES" >&2; exit 2; }
[ -d "$data" ] || { echo "eval: no prepared LoCoMo folder at $data (set EVAL_DIR)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/res" "$work/ctx"
for dir in "$data"/*/; do
  c=$(basename "$dir")
  d="$work/data/$c"
  export HERMES_DATA_DIR="$d" OLLAMA_HOST=http://127.0.0.1:9
  "$bin" memory import --jsonl "$dir/memories.jsonl" >/dev/null
  "$bin" session import --jsonl "$dir/session.jsonl" >/dev/null 2>&1
  python3 -c 'import json,sys
for l in open(sys.argv[1]):
    q=json.loads(l); print(json.dumps({"id":q["id"],"query":q["query"]}))' "$dir/queries.jsonl" >"$work/q-$c.jsonl"
  "$bin" memory search --batch "$work/q-$c.jsonl" --k 10 --json >"$work/res/$c.jsonl"
done
echo "memory search (hit@k, recall@k):"
python3 "$eval_root/locomo_score.py" "$data" results "$work/res"
echo "plain BM25 on the same turns:"
python3 "$eval_root/locomo_score.py" "$data" bm25
python3 "$eval_root/locomo_context_score.py" "$data" batch 2048 "$work/batch.jsonl"
for dir in "$data"/*/; do
  c=$(basename "$dir")
  grep -F "\"locomo-$c\"" "$work/batch.jsonl" >"$work/b-$c.jsonl"
  HERMES_DATA_DIR="$work/data/$c" OLLAMA_HOST=http://127.0.0.1:9 "$bin" session context --batch "$work/b-$c.jsonl" --json >"$work/ctx/$c.jsonl"
done
echo "context builder, evidence kept at 2,048 tokens:"
python3 "$eval_root/locomo_context_score.py" "$data" results 2048 "$work/ctx"
echo "newest-first truncation:"
python3 "$eval_root/locomo_context_score.py" "$data" naive 2048
