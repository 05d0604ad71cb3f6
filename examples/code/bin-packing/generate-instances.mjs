// Writes instances.json: 120 fixed one-dimensional bin-packing instances from a seeded generator,
// so the file can be checked for drift (`node generate-instances.mjs --check`) and rebuilt exactly.
// Four families of 30, chosen so that no single simple heuristic is best on all of them:
//   uniform   capacity 150, 120 items of 20–100 (Falkenauer's "u" style)
//   triplets  capacity 1000, 60 items in triples that fill a bin exactly, shuffled: the optimum is
//             n / 3 bins, and greedy orders miss it
//   bigsmall  capacity 100, 100 items: 40 % of 51–70 (one per bin) and 60 % of 5–30 to fit around them
//   wide      capacity 100, 120 items of 1–100
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SEED = 20261201;
const PER_FAMILY = 30;

/** mulberry32: a small seeded generator, enough for test data. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAMILIES = {
  uniform(random) {
    const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
    return { capacity: 150, sizes: Array.from({ length: 120 }, () => int(20, 100)) };
  },
  triplets(random) {
    const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
    const sizes = [];
    for (let t = 0; t < 20; t++) {
      const a = int(380, 490);
      const b = int(250, Math.min(490, 1000 - a - 250));
      sizes.push(a, b, 1000 - a - b);
    }
    for (let i = sizes.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [sizes[i], sizes[j]] = [sizes[j], sizes[i]];
    }
    return { capacity: 1000, sizes };
  },
  bigsmall(random) {
    const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
    return { capacity: 100, sizes: Array.from({ length: 100 }, () => (random() < 0.4 ? int(51, 70) : int(5, 30))) };
  },
  wide(random) {
    const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
    return { capacity: 100, sizes: Array.from({ length: 120 }, () => int(1, 100)) };
  },
};

function generate() {
  const random = rng(SEED);
  const instances = [];
  for (const [family, make] of Object.entries(FAMILIES)) {
    for (let k = 0; k < PER_FAMILY; k++) {
      const id = `bp-${String(instances.length + 1).padStart(3, '0')}`;
      instances.push({ id, family, ...make(random) });
    }
  }
  return instances;
}

/** One instance per line: small, and a diff shows which instance changed. */
function render(instances) {
  const lines = instances.map((inst) => '    ' + JSON.stringify(inst));
  return `{\n  "generator": "generate-instances.mjs, seed ${SEED}",\n  "instances": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

const file = fileURLToPath(new URL('instances.json', import.meta.url));
const text = render(generate());
if (process.argv.includes('--check')) {
  if (readFileSync(file, 'utf8') !== text) {
    console.error('instances.json differs from what generate-instances.mjs produces');
    process.exit(1);
  }
  console.log('instances.json is up to date');
} else {
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
