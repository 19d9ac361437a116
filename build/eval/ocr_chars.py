#!/usr/bin/env python3
"""How much of the scanned copy's text recognition read right: for each
scanned article, the share of its source characters (spaces aside) that the
indexed passages hold in order (difflib's matching blocks over the passages
joined), summed per language.

  ocr_chars.py HERMES_DB KB_DEV_DOCS_DIR"""
import os, re, sqlite3, sys
from difflib import SequenceMatcher

def squeeze(s):
    return re.sub(r'\s+', '', s)

def main():
    db, src = sys.argv[1], sys.argv[2]
    rows = sqlite3.connect(db).execute(
        "select f.path, group_concat(c.text, '') from (select * from kb_chunks order by file_id, seq) c "
        "join kb_files f on f.id = c.file_id group by f.id")
    per = {}
    for path, text in rows:
        s = squeeze(open(os.path.join(src, path[:-4] + '.md')).read().replace('# ', '', 1))
        lang = 'zh' if sum('\u4e00' <= c <= '\u9fff' for c in s) > 0.3 * len(s) else 'en'
        m = SequenceMatcher(None, s, squeeze(text), autojunk=False)
        right, n = per.get(lang, (0, 0))
        per[lang] = (right + sum(b.size for b in m.get_matching_blocks()), n + len(s))
    for lang, (right, n) in sorted(per.items()):
        print(f"characters read right, {lang}: {right / n:.3f} of {n}")

main()
