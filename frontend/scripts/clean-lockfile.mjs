// Removes host names from package-lock.json (npm still writes packages' "funding" links even with
// omit-lockfile-registry-resolved=true), then fails if any URL is left. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const lock = JSON.parse(readFileSync(file, 'utf8'));
let removed = 0;
for (const pkg of Object.values(lock.packages ?? {})) {
  if ('funding' in pkg) {
    delete pkg.funding;
    removed++;
  }
}
const text = JSON.stringify(lock, null, 2) + '\n';
writeFileSync(file, text);
const left = text.split("\n").filter((l) => /https?:\/\/|git(\+[a-z]+)?:\/\//i.test(l));
if (left.length) {
  console.error(`package-lock.json still names hosts:\n${left.join('\n')}`);
  process.exit(1);
}
console.log(`package-lock.json: removed ${removed} funding entries; no host names left`);
