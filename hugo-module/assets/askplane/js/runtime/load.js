// Loading what the widget answers from: the site config (the trust
// anchor the page names), then the artifact it pins, verified with the
// page's SHA-256 before any of it can answer.

import { decodeSiteConfig, siteTrust } from './site.js';
import { VerifiedResolver } from './resolver.js';
import { verifyArtifactIndexWith } from './knowledge.js';
import { fail, invalid } from './json.js';
import { fetchBytes } from './net.js';

/** @typedef {import('./site.js').SiteConfig} SiteConfig */

/**
 * A SHA-256 of bytes or of a string's UTF-8 bytes, as lowercase hex.
 * @typedef {(input: Uint8Array | string) => Promise<string>} HexDigest
 */

/**
 * loadKnowledge fetches the site config at href (the root's
 * data-askplane-site), gives it to found (the decoded config, or null),
 * then fetches and verifies the artifact the config pins. It never
 * rejects: it resolves to a Resolver, one that escalates every question
 * as corrupt when anything failed. It calls again when what failed should
 * be loaded again on the next question (a config or artifact that did
 * not arrive; one that arrived and is bad, or none at all, stays bad),
 * never before its first await. The page names the config with v, the
 * first 12 hex digits of its SHA-256 (widget-shell.html): a config that
 * does not match (a cache's copy of another site's, or of another
 * build's) is fetched once more past the cache, then is as bad as one
 * that does not decode.
 * @param {string} href
 * @param {HexDigest} sha256
 * @param {(site: SiteConfig | null) => void} found
 * @param {() => void} again
 * @returns {Promise<VerifiedResolver>}
 */
export async function loadKnowledge(href, sha256, found, again) {
  /** @type {Uint8Array | null | undefined} */
  let bytes;
  /** @type {SiteConfig | null} */
  let site = null;
  try {
    const url = href && new URL(href, document.baseURI);
    const v = url && url.searchParams.get('v');
    const stale = async () => bytes && v && !(await sha256(bytes)).startsWith(v);
    bytes = url ? await fetchBytes(url).catch(() => null) : undefined;
    if (await stale()) bytes = await fetchBytes(/** @type {URL} */ (url), 'no-cache').catch(() => null);
    if (await stale()) bytes = new Uint8Array();
    const d = bytes && decodeSiteConfig(bytes);
    found((site = d?.ok ? d.value : null));
    if (site) return new VerifiedResolver(await verifyArtifactIndexWith(await fetchBytes(new URL(site.artifact.href, document.baseURI)), siteTrust(site), sha256));
  } catch {}
  // (Without an await before it, there was no href, or no URL in it:
  // nothing to load again.)
  if (site || bytes === null) again();
  return new VerifiedResolver(fail(invalid()));
}
