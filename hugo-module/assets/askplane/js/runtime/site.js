// agentskit.chat.site v1: the trust anchor. The page inlines it; it pins
// the artifact's content hash and site id, and says whether a question the
// artifact cannot answer may go to the Ask backend. It has no expiry of its
// own: staleness lives in the artifact's expiresAt.

import { MAX_SITE_CONFIG_BYTES, SITE_PROTOCOL, VERSION } from './limits.js';
import { isContentHash, isSafeIdentifier } from './text.js';
import { isSafeHref } from './href.js';
import { field, object, ok, oneOf, parseDocument, readText, schema } from './json.js';

/**
 * A decoded site config.
 * @typedef {object} SiteConfig
 * @property {string} protocol
 * @property {number} version
 * @property {string} siteId
 * @property {{href: string, contentHash: string}} artifact
 * @property {{mode: string}} fallback
 */

/** A question the artifact cannot answer may go to the Ask backend. */
export const FALLBACK_BACKEND = 'backend';
/** No question goes to the Ask backend. */
export const FALLBACK_DISABLED = 'disabled';

// decodeSiteConfig decodes a site config (bytes or string). The byte limit
// is checked before parsing; unknown members are stripped. The value is a
// fresh object in the protocol's key order.
/**
 * @param {unknown} input
 * @returns {import('./json.js').Result<SiteConfig>}
 */
export function decodeSiteConfig(input) {
  const r = parseDocument(readText(input, MAX_SITE_CONFIG_BYTES), SITE_PROTOCOL);
  if (!r.ok) return r;
  const root = r.value;
  return schema(() => {
    const siteId = field(root, 'siteId', isSafeIdentifier);
    const art = object(field(root, 'artifact'));
    const href = field(art, 'href', isSafeHref);
    const contentHash = field(art, 'contentHash', isContentHash);
    const mode = oneOf(field(object(field(root, 'fallback')), 'mode'), FALLBACK_BACKEND, FALLBACK_DISABLED);
    return ok({
      protocol: SITE_PROTOCOL,
      version: VERSION,
      siteId,
      artifact: { href, contentHash },
      fallback: { mode },
    });
  });
}

// encodeSiteConfig writes a site config in the protocol's key order.
/**
 * @param {SiteConfig} site
 * @returns {string}
 */
export function encodeSiteConfig(site) {
  return JSON.stringify({
    protocol: SITE_PROTOCOL,
    version: VERSION,
    siteId: site.siteId,
    artifact: { href: site.artifact.href, contentHash: site.artifact.contentHash },
    fallback: { mode: site.fallback.mode },
  });
}

// siteTrust returns the anchors an artifact must match: {contentHash,
// siteId}, the trust argument of verifyArtifact and the resolver.
/**
 * @param {SiteConfig} site
 * @returns {import('./knowledge.js').Trust}
 */
export function siteTrust(site) {
  return { contentHash: site.artifact.contentHash, siteId: site.siteId };
}
