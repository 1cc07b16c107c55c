/**
 * Query parameters that carry a credential, by the end of their name once lower-cased and
 * stripped of `-`, `_` and `.`: `api_key`, `apiKey`, `key`, `token`, `access_token`,
 * `X-Amz-Security-Token`, `secret`, `client_secret`, `password`, `passwd`, `pwd`, `pass`, `sig`,
 * `signature`, `credential(s)`, `auth`, `authorization`. Parameters that only configure
 * authentication (`authSource`, `authMechanism`) are kept: the import needs them.
 */
const CREDENTIAL_NAME =
  /(key|token|secret|password|passwd|pwd|pass|sig|signature|credentials?|auth|authorization)$/;

export function isCredentialParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // a malformed escape: judged as written
  }
  return CREDENTIAL_NAME.test(decoded.toLowerCase().replace(/[-_.\s]/g, ''));
}

export interface StrippedUrl {
  url: string;
  /** Something was left out: the import must ask for it. */
  removed: boolean;
  /** Of which credential query parameters (not only the userinfo's password). */
  removedParameters: boolean;
}

/**
 * A URL or connection URI without the credentials it carries: the password of its userinfo (the
 * whole userinfo unless `keepUser`, since a user name alone can be a token: `https://TOKEN@host`)
 * and every credential-like query parameter. Written by hand rather than with the URL parser:
 * database URIs (`mongodb://u:p@h1,h2/db`) are not URLs it accepts, and a password may hold an
 * unencoded `@`, so the userinfo ends at the last `@` before the path.
 */
export function withoutCredentials(url: string, { keepUser }: { keepUser: boolean }): StrippedUrl {
  let removed = false;
  let removedParameters = false;
  const [beforeFragment, fragment] = splitOnce(url, '#');
  const [base, query] = splitOnce(beforeFragment, '?');
  let head = base;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(base)?.[0];
  if (scheme) {
    const rest = base.slice(scheme.length);
    const authorityEnd = rest.indexOf('/') === -1 ? rest.length : rest.indexOf('/');
    const at = rest.lastIndexOf('@', authorityEnd - 1);
    if (at !== -1) {
      const userinfo = rest.slice(0, at);
      const user = userinfo.split(':')[0] ?? '';
      const kept = keepUser && user ? `${user}@` : '';
      removed = removed || kept !== `${userinfo}@`;
      head = `${scheme}${kept}${rest.slice(at + 1)}`;
    }
  }
  let search = '';
  if (query !== undefined) {
    const pairs = query.split('&');
    const kept = pairs.filter((pair) => !isCredentialParameter(pair.split('=')[0] ?? ''));
    removedParameters = kept.length !== pairs.length;
    removed = removed || removedParameters;
    search = kept.length > 0 ? `?${kept.join('&')}` : '';
  }
  const rest = `${search}${fragment === undefined ? '' : `#${fragment}`}`;
  return { url: `${head}${rest}`, removed, removedParameters };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index === -1 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}
