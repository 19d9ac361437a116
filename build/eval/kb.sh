#!/usr/bin/env bash
# Knowledge-base evaluation (README, "Your documents"): the prepared kb-dev folder
# of EVAL_ROOT (default ../shared/eval) is added to a fresh data dir with
# `kb add`, its questions answered by `kb search --batch --k 10 --json`, and the
# project's scorer prints hit@1/5/10 and MRR@10 overall and per language, with
# plain BM25 over paragraphs beside it. Offline: no embedding server is used.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
eval_root=${EVAL_ROOT:-$here/../shared/eval}
data=${KB_EVAL_DIR:-$eval_root/kb-dev}
bin=${HERMES:-$here/build/bin/hermes}
[ -x "$bin" ] || { echo "eval: build hermes first (go tool task build), or set HERMES" >&2; exit 2; }
[ -d "$data/docs" ] || { echo "eval: no prepared kb-dev folder at $data (set KB_EVAL_DIR)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HERMES_DATA_DIR="$work/data" OLLAMA_HOST=http://127.0.0.1:9
start=$(date +%s.%N)
"$bin" kb add "$data/docs" --name kb-dev >/dev/null
end=$(date +%s.%N)
python3 -c 'import sys,os
d=sys.argv[1]; s=sum(os.path.getsize(os.path.join(d,f)) for f in os.listdir(d))
t=float(sys.argv[3])-float(sys.argv[2])
print(f"kb add: {s/1e6:.2f} MB in {t:.2f} s ({s/1e6/t:.2f} MB/s, whole command)")' "$data/docs" "$start" "$end"
python3 -c 'import json,sys
for l in open(sys.argv[1]):
    q=json.loads(l); print(json.dumps({"id":q["id"],"query":q["query"]}, ensure_ascii=False))' "$data/queries.jsonl" >"$work/q.jsonl"
"$bin" kb search --batch "$work/q.jsonl" --k 10 --json >"$work/res.jsonl"
echo "kb search:"
python3 "$eval_root/kb_score.py" "$data/queries.jsonl" "$work/res.jsonl"
echo "plain BM25 over paragraphs:"
python3 "$eval_root/kb_score.py" "$data/queries.jsonl" --bm25 "$data/docs"
