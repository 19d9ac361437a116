// Removes every URL from package-lock.json (funding links; resolved URLs are
// already omitted by .npmrc) so the lock names no host. Run after `npm install`
// changes the lock: node strip-lock.js
'use strict';
const fs = require('fs');
const path = require('path');
const file = path.join(__dirname, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const strip = (v) => {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'funding' || k === 'resolved') continue;
      out[k] = strip(x);
    }
    return out;
  }
  return v;
};
const text = JSON.stringify(strip(lock), null, 2) + '\n';
if (/:\/\//.test(text)) {
  console.error('package-lock.json still holds a URL');
  process.exit(1);
}
fs.writeFileSync(file, text);
