import { createHash } from 'node:crypto';

/** The portal's Content Security Policy (docs/decisions/004-csp.md), for helmet. */

/**
 * The style react-aria injects once for pressable elements (`touch-action: pan-x pan-y pinch-zoom`,
 * react-aria's usePress). Allowed by its hash rather than by 'unsafe-inline'; the browser tests record
 * every CSP violation, so a react-aria upgrade that changes the text fails them and this hash is renewed.
 */
export const REACT_ARIA_PRESS_STYLE_HASH = "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='";

/**
 * The style attributes react-aria writes into server-rendered HTML (its visually hidden inputs and live
 * region), which the prerendered wizard and Find my case pages carry until they hydrate. Allowed by their
 * hashes only ('unsafe-hashes' covers attributes, never a <style> or script). scripts/prerender.ts refuses
 * any other style attribute, and the browser tests record every CSP violation.
 */
export const PRERENDERED_STYLE_ATTRIBUTES = [
  'border:0;clip:rect(0 0 0 0);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;position:absolute;width:1px;white-space:nowrap',
  'border:0;clip:rect(0 0 0 0);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;position:fixed;width:1px;white-space:nowrap;top:0;left:0',
  // react-aria's date field (its segments keep their order in right-to-left text).
  'unicode-bidi:isolate',
  'caret-color:transparent',
];
const styleAttributeHashes = PRERENDERED_STYLE_ATTRIBUTES.map(
  (css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`,
);

/** No inline script or style anywhere: the SPA is built to files. */
export const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", REACT_ARIA_PRESS_STYLE_HASH],
    styleSrcAttr: ["'unsafe-hashes'", ...styleAttributeHashes],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    // No <base> element anywhere: an injected one cannot move relative URLs (docs/decisions/004-csp.md).
    baseUri: ["'none'"],
    formAction: ["'self'"],
  },
};
