#!/usr/bin/env python3
"""Make a scanned copy of part of kb-dev: each chosen article's text is rendered
to page images (ImageMagick, Noto Sans CJK at about 10.5 pt, 300 dpi: a
scanner's usual setting) and wrapped as a PDF with
no text layer (one JPEG per page), so only text recognition can read it; the
questions of those articles are written with the PDF's name.

  kb_scan.py KB_DEV_DIR OUT_DIR [N_CHINESE]    (default 30 Chinese articles and both English ones)
"""
import json, os, subprocess, sys

def pages(text, size=900):
    out, cur = [], ''
    for para in text.split('\n'):
        while len(para) > size:
            out.append((cur + para[:size]).strip()); cur = ''; para = para[size:]
        if len(cur) + len(para) > size and cur:
            out.append(cur.strip()); cur = ''
        cur += para + '\n'
    if cur.strip():
        out.append(cur.strip())
    return out

def wrap(text, width=46):
    """Lines of at most width full-width characters (a Latin letter counts half),
    broken at a space when one is near: ImageMagick wraps only at spaces."""
    lines = []
    for para in text.split('\n'):
        cur, w = '', 0.0
        for ch in para:
            cw = 0.5 if ord(ch) < 0x2E80 else 1.0
            if w + cw > width:
                cut = cur.rfind(' ')
                if cut > len(cur) - 12 and cut > 0:
                    lines.append(cur[:cut]); cur = cur[cut + 1:]
                else:
                    lines.append(cur); cur = ''
                w = sum(0.5 if ord(c) < 0x2E80 else 1.0 for c in cur)
            cur += ch; w += cw
        lines.append(cur)
    return '\n'.join(lines)

def jpeg(text, path):
    # one label a line, stacked: ImageMagick refuses a many-line label of CJK text
    labels = ['label:' + l.replace('%', '%%').replace('\\', '\\\\') for l in wrap(text).split('\n') if l.strip()]
    subprocess.run(['convert', '-background', 'white', '-fill', 'black', '-font', 'Noto-Sans-CJK-SC', '-pointsize', '44']
                   + labels + ['-append', '-bordercolor', 'white', '-border', '150', '-quality', '85', path], check=True)
    size = subprocess.run(['identify', '-format', '%w %h', path], check=True, capture_output=True, text=True).stdout.split()
    return int(size[0]), int(size[1])

def pdf(images, path):
    """A PDF whose pages are the JPEG images (DCTDecode), at 300 dpi."""
    objs = [b'<< /Type /Catalog /Pages 2 0 R >>', None]
    kids = []
    for i, (img, w, h) in enumerate(images):
        data = open(img, 'rb').read()
        n = len(objs) + 1
        pw, ph = w * 72 / 300, h * 72 / 300
        objs.append(b'<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n' % (w, h, len(data)) + data + b'\nendstream')
        content = b'q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q' % (pw, ph)
        objs.append(b'<< /Length %d >>\nstream\n' % len(content) + content + b'\nendstream')
        objs.append(b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>' % (pw, ph, n, n + 1))
        kids.append(n + 2)
    objs[1] = b'<< /Type /Pages /Kids [%s] /Count %d >>' % (b' '.join(b'%d 0 R' % k for k in kids), len(kids))
    out, offsets = bytearray(b'%PDF-1.4\n'), []
    for i, o in enumerate(objs):
        offsets.append(len(out))
        out += b'%d 0 obj\n' % (i + 1) + o + b'\nendobj\n'
    xref = len(out)
    out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objs) + 1) + b''.join(b'%010d 00000 n \n' % o for o in offsets)
    out += b'trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objs) + 1, xref)
    open(path, 'wb').write(out)

def main():
    src, out = sys.argv[1], sys.argv[2]
    n_zh = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    qs = [json.loads(l) for l in open(os.path.join(src, 'queries.jsonl'))]
    langs = {}
    for q in qs:
        langs.setdefault(q['file'], q['lang'])
    zh = sorted(f for f, l in langs.items() if l == 'zh')[:n_zh]
    en = sorted(f for f, l in langs.items() if l == 'en')
    chosen = set(zh + en)
    os.makedirs(os.path.join(out, 'docs'), exist_ok=True)
    npages = 0
    for f in sorted(chosen):
        text = open(os.path.join(src, 'docs', f)).read()
        imgs = []
        for i, p in enumerate(pages(text.replace('# ', '', 1))):
            img = os.path.join(out, 'page-%d.jpg' % i)
            imgs.append((img,) + jpeg(p, img))
        pdf(imgs, os.path.join(out, 'docs', f[:-3] + '.pdf'))
        for img, _, _ in imgs:
            os.remove(img)
        npages += len(imgs)
    with open(os.path.join(out, 'queries.jsonl'), 'w') as w:
        for q in qs:
            if q['file'] in chosen:
                q['file'] = q['file'][:-3] + '.pdf'
                w.write(json.dumps(q, ensure_ascii=False) + '\n')
    print('scanned %d articles (%d Chinese, %d English) into %d pages' % (len(chosen), len(zh), len(en), npages))

main()
