/**
 * JSON a model wrote, read as it meant it (#25): models wrap it in a ```json fence, put a label line
 * before it ("Task 3:"), leave a trailing comma, add // comments, or break a line inside a string.
 * Each of those is repaired (the fence and the label by hand; the rest by `jsonrepair`) and every
 * repair is named, so a round's record can say how often the Challenger needed one. Anything
 * `jsonrepair` cannot make into JSON stays an error: a task the model did not write is never
 * invented.
 */
import { jsonrepair } from 'jsonrepair';
import { JSON_REPAIRS } from '../journal/payloadTypes';
import type { JsonRepair } from '../journal/payloadTypes';

export type RepairedJson = { ok: true; value: unknown; repairs: JsonRepair[] } | { ok: false; error: string };

/** Parses `text`, repairing what models get wrong; the repairs made, in a fixed order. */
export function parseModelJson(text: string): RepairedJson {
  const found = new Set<JsonRepair>();
  let body = text.trim();
  // A label line may stand before the fence or inside it ("JSON:", "Task 3:").
  for (let pass = 0; pass < 2; pass++) {
    const label = /^([^\n{[`~]{1,60})\n/.exec(body);
    if (label && !/^\s*["\d-]/.test(label[1]!)) {
      body = body.slice(label[0].length).trim();
      found.add('label');
    }
    const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\s*\1\s*$/.exec(body);
    if (fenced) {
      body = fenced[2]!.trim();
      found.add('fence');
    }
  }
  const repairs = JSON_REPAIRS.filter((r) => found.has(r));
  // Prose is not JSON: jsonrepair would make it a string.
  if (!/^[{[]/.test(body)) return { ok: false, error: 'it does not start with { or [' };
  try {
    return { ok: true, value: JSON.parse(body), repairs };
  } catch (err) {
    let repaired: string;
    try {
      repaired = jsonrepair(body);
    } catch {
      return { ok: false, error: (err as Error).message };
    }
    const found = damage(body);
    return { ok: true, value: JSON.parse(repaired), repairs: [...repairs, ...(found.length > 0 ? found : (['other'] as const))] };
  }
}

/** What in a JSON text needs repair, found by one pass that knows where its strings are. */
function damage(text: string): JsonRepair[] {
  const found = new Set<JsonRepair>();
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      else if (c === '\n' || c === '\r') found.add('lineBreak');
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) found.add('comment');
    else if (c === ',' && /^\s*(?:\/\/[^\n]*\n\s*)*[}\]]/.test(text.slice(i + 1))) found.add('trailingComma');
  }
  return JSON_REPAIRS.filter((r) => found.has(r));
}
