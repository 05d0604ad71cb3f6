/**
 * Keeps secrets out of everything Ratchet writes down (journal, run.json, logs). Two nets, because
 * either alone leaks: a key *named* like a credential is blanked whatever its value, and a value
 * that *looks* like a bearer key (`sk-…`, `Bearer …`) is blanked wherever it hides — inside a
 * candidate's text, an error message, a command line.
 *
 * A third kind hides in endpoint URLs: `https://x.openai.azure.com/…?api-key=…` (Azure style) and
 * `http://user:pw@host/v1`. `redactUrl` blanks those parts, and `redact` applies it to every field
 * named like a URL (`baseURL`, `url`, `endpoint`). Free text (a candidate prompt, an LLM answer) is
 * left alone: `?code=` in a prompt about web links is content, and the journal must keep it.
 */

export const REDACTED = '[redacted]';

/**
 * Credential key names, compared after lower-casing and dropping `-`/`_`, so `apiKey`, `api_key`,
 * `API-KEY` and `x-api-key` all match. Exact names only: `promptTokens` or `maxTokens` are counts
 * a user needs to see, and a substring test on "token" would blank them.
 */
const SECRET_KEYS = new Set(['apikey', 'apikeys', 'xapikey', 'authorization', 'proxyauthorization', 'token', 'accesstoken', 'refreshtoken', 'authtoken', 'bearertoken', 'idtoken', 'secret', 'clientsecret', 'password', 'passwd']);

/**
 * Query parameters that carry credentials, on top of the credential names above (`api-key`,
 * `access_token`, `token`, `password`…), compared the same way. These are too generic to blank as
 * JSON fields (`code` is every error's reason code) but in a URL they are how providers and signed
 * links pass secrets: Azure's `key`/`subscription-key`, SAS and S3/GCS signatures, OAuth `code`.
 */
const SECRET_URL_PARAMS = new Set([
  'key',
  'apikey',
  'subscriptionkey',
  'ocpapimsubscriptionkey',
  'sig',
  'signature',
  'sas',
  'code',
  'auth',
  'pass',
  'pwd',
  'credential',
  'credentials',
  'session',
  'sessionid',
  'xamzsignature',
  'xamzcredential',
  'xamzsecuritytoken',
  'xgoogsignature',
  'xgoogcredential',
]);

/** Fields whose string value is a URL, compared like credential names: `baseURL`, `base_url`, `url`, `endpoint`. */
const URL_FIELDS = new Set(['baseurl', 'url', 'endpoint']);

/** OpenAI-style keys (`sk-…`, `sk-proj-…`) and HTTP bearer credentials. Short `sk-x` words stay. */
const SECRET_VALUES: readonly RegExp[] = [/\bsk-[A-Za-z0-9_-]{16,}/g, /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi];

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normalizedName(key));
}

export function isSecretUrlParam(name: string): boolean {
  const n = normalizedName(name);
  return SECRET_KEYS.has(n) || SECRET_URL_PARAMS.has(n);
}

function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** What in a URL is a credential: a user name or password, and the names of its secret query parameters. */
export interface UrlCredentials {
  userinfo: boolean;
  params: string[];
}

/** The credentials `url` carries; none when it is not an absolute URL. */
export function urlCredentials(url: string): UrlCredentials {
  const parsed = parseUrl(url);
  if (!parsed) return { userinfo: false, params: [] };
  const names = [...new Set([...parsed.searchParams.keys()])];
  return { userinfo: parsed.username !== '' || parsed.password !== '', params: names.filter(isSecretUrlParam) };
}

/**
 * `url` with its user name, password and secret query values replaced by `[redacted]`; the
 * parameter names, the host, the path and every other parameter stay, so two endpoints still read
 * (and cache) as two. A URL without credentials comes back exactly as given, not re-serialised:
 * cache keys made from it before this function existed stay valid.
 */
export function redactUrl(url: string): string {
  const found = urlCredentials(url);
  if (!found.userinfo && found.params.length === 0) return url;
  // Rewritten on the raw text, not through URL.toString(), which would percent-encode `[redacted]`.
  let out = found.userinfo ? url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`) : url;
  out = out.replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, sep: string, name: string) => (isSecretUrlParam(safeDecode(name)) ? `${sep}${name}=${REDACTED}` : whole));
  return out;
}

/**
 * `text` with every URL in it passed through `redactUrl`: for messages and log lines, which quote
 * an endpoint (or an SDK's error quoting a request URL), never for content such as a prompt.
 */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, (url) => {
    // A sentence's closing punctuation is not part of the URL.
    const tail = /[.,;:!?)]+$/.exec(url)?.[0] ?? '';
    const bare = url.slice(0, url.length - tail.length);
    return redactUrl(bare) + tail;
  });
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url.trim());
  } catch {
    return undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Known secrets shorter than this are too likely to occur by chance to be blanked as text. */
export const MIN_KNOWN_SECRET_LENGTH = 8;

/**
 * `text` with every occurrence of a secret Ratchet knows (the run's API keys, the values of
 * variables named like credentials, the keys in the editor's settings) replaced by `[redacted]`,
 * then every bearer-looking value: for what an evaluated program printed, which may quote a key it
 * found wherever it looked, for what an endpoint said, and for the editor's output channels.
 */
export function redactKnown(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const form of secretForms(secrets)) out = out.split(form).join(REDACTED);
  return redactText(out);
}

/**
 * Each secret as it may appear: raw, and escaped inside a JSON string (a traced settings message
 * quotes the key so). Longest first, so a key that contains another is blanked whole.
 */
function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length < MIN_KNOWN_SECRET_LENGTH) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  return [...forms].sort((a, b) => b.length - a.length);
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
      if (isSecretKey(key) && v !== undefined && v !== null && v !== '') out[key] = REDACTED;
      else if (typeof v === 'string' && URL_FIELDS.has(normalizedName(key))) out[key] = redactText(redactUrl(v));
      else out[key] = redactValue(v, seen);
    }
    return out;
  } finally {
    // A value shared by two branches (not a cycle) is copied twice rather than reported circular.
    seen.delete(value);
  }
}
