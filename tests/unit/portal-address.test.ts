import { describe, expect, it } from 'vitest';
import { createPortalAddress, originOfAddress } from '../../api/http/portal-address';

/** The one maker of links to the portal (api/http/portal-address.ts, docs/operations.md). */
describe('the portal address', () => {
  it('is PUBLIC_ORIGIN when configured, whatever the server listens on', () => {
    const portal = createPortalAddress('https://portal.bd.example.hk');
    portal.listening('http://localhost:3105');

    expect(portal.link('/appointment-accept#abc')).toBe(
      'https://portal.bd.example.hk/appointment-accept#abc',
    );
  });

  it('is the address the server listens on without PUBLIC_ORIGIN', () => {
    const portal = createPortalAddress(undefined);
    portal.listening('http://127.0.0.1:3105');

    expect(portal.origin()).toBe('http://127.0.0.1:3105');
    expect(portal.link('/appointee-login')).toBe('http://127.0.0.1:3105/appointee-login');
  });

  it('refuses to make a link before it knows the address, rather than guessing one', () => {
    expect(() => createPortalAddress(undefined).link('/appointment-accept')).toThrow(/PUBLIC_ORIGIN/);
  });

  it('names a server on all interfaces localhost, and brackets an IPv6 address', () => {
    expect(originOfAddress({ address: '0.0.0.0', port: 3105 })).toBe('http://localhost:3105');
    expect(originOfAddress({ address: '::', port: 3105 })).toBe('http://localhost:3105');
    expect(originOfAddress({ address: '::1', port: 3105 })).toBe('http://[::1]:3105');
    expect(originOfAddress({ address: '127.0.0.1', port: 80 })).toBe('http://127.0.0.1:80');
  });
});
