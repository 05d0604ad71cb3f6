/**
 * Keeps secrets out of everything Ratchet writes down (journal, run.json, logs). Two nets, because
 * either alone leaks: a key *named* like a credential is blanked whatever its value, and a value
 * that *looks* like a bearer key (`sk-…`, `Bearer …`) is blanked wherever it hides — inside a
 * candidate's text, an error message, a command line.
 */

export const REDACTED = '[redacted]';

/**
 * Credential key names, compared after lower-casing and dropping `-`/`_`, so `apiKey`, `api_key`,
 * `API-KEY` and `x-api-key` all match. Exact names only: `promptTokens` or `maxTokens` are counts
 * a user needs to see, and a substring test on "token" would blank them.
 */
const SECRET_KEYS = new Set([
  'apikey',
  'apikeys',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'token',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'bearertoken',
  'idtoken',
  'secret',
  'clientsecret',
  'password',
  'passwd',
]);

/** OpenAI-style keys (`sk-…`, `sk-proj-…`) and HTTP bearer credentials. Short `sk-x` words stay. */
const SECRET_VALUES: readonly RegExp[] = [/\bsk-[A-Za-z0-9_-]{16,}/g, /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi];

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** `text` with every bearer-looking value replaced by `[redacted]`. */
export function redactText(text: string): string {
  let out = text;
  for (const pattern of SECRET_VALUES) {
    out = out.replace(pattern, (_match, scheme: unknown) => (typeof scheme === 'string' ? `${scheme} ${REDACTED}` : REDACTED));
  }
  return out;
}

/**
 * A deep copy of `value` with secrets blanked (see the module comment). Plain data in, plain data
 * out: class instances other than arrays are copied as their own enumerable fields, which is what
 * JSON.stringify would keep anyway.
 */
export function redact<T>(value: T): T {
  return redactValue(value, new WeakSet()) as T;
}

function redactValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => redactValue(v, seen));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = isSecretKey(key) && v !== undefined && v !== null && v !== '' ? REDACTED : redactValue(v, seen);
    }
    return out;
  } finally {
    // A value shared by two branches (not a cycle) is copied twice rather than reported circular.
    seen.delete(value);
  }
}
