#!/usr/bin/env bash
# Knowledge base through text recognition (README, "Your documents"): part of
# kb-dev rendered as scanned pages (build/eval/kb_scan.py: page images wrapped as
# PDFs with no text layer), added with `kb add` (Tesseract reads every page),
# and its questions scored by kb_score.py; prints pages per minute.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
eval_root=${EVAL_ROOT:-$here/../shared/eval}
data=${KB_EVAL_DIR:-$eval_root/kb-dev}
bin=${HERMES:-$here/build/bin/hermes}
[ -x "$bin" ] || { echo "eval: build hermes first (go tool task build), or set HERMES" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/build/eval/kb_scan.py" "$data" "$work/scan" "${KB_SCAN_ZH:-30}"
export HERMES_DATA_DIR="$work/data" OLLAMA_HOST=http://127.0.0.1:9
start=$(date +%s.%N)
"$bin" kb add "$work/scan/docs" --name scanned >/dev/null
end=$(date +%s.%N)
"$bin" kb status scanned | head -3
pages=$("$bin" --json kb status scanned | python3 -c 'import json,sys; print(sum(f.get("pages",0) for f in json.load(sys.stdin)["files"]))')
python3 -c 'import sys; p,t=int(sys.argv[1]),float(sys.argv[3])-float(sys.argv[2]); print(f"text recognition: {p} pages in {t:.0f} s ({p/t*60:.1f} pages/minute, whole command)")' "$pages" "$start" "$end"
python3 -c 'import json,sys
for l in open(sys.argv[1]):
    q=json.loads(l); print(json.dumps({"id":q["id"],"query":q["query"]}, ensure_ascii=False))' "$work/scan/queries.jsonl" >"$work/q.jsonl"
"$bin" kb search --batch "$work/q.jsonl" --k 10 --json >"$work/res.jsonl"
echo "kb search on the scanned copy:"
python3 "$eval_root/kb_score.py" "$work/scan/queries.jsonl" "$work/res.jsonl"
python3 "$here/build/eval/ocr_chars.py" "$HERMES_DATA_DIR/hermes.db" "$data/docs"
