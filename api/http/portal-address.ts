import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The portal's own address, the one place a link to the portal is made (an AP's or RSE's invitation
 * today; any message that links to a page tomorrow). Decision and the reasons: docs/operations.md,
 * "The portal's address in links".
 *
 * - PUBLIC_ORIGIN, when configured, is the address (production must configure it: api/config.ts).
 * - Otherwise (development, tests) it is the address the server listens on, with its actual port, known
 *   once it listens.
 *
 * Never a request's Host (or X-Forwarded-Host) header: whoever sends the request chooses it, so a caller
 * could make the portal email an invitation whose link leads to their own site, with the token in it.
 */
export interface PortalAddress {
  /** `http://localhost:3105` or the configured `https://portal.example`: no trailing slash. */
  origin(): string;
  /** A link to a page of the portal: `link('/appointment-accept#token')`. */
  link(pathAndFragment: string): string;
  /** The server listens at `origin` (`http://localhost:3105`): the portal's when PUBLIC_ORIGIN is not configured. */
  listening(origin: string): void;
}

/** The address a browser opens for a server bound to `address` (all interfaces: localhost). */
export function originOfAddress({ address, port }: Pick<AddressInfo, 'address' | 'port'>): string {
  const host =
    address === '0.0.0.0' || address === '::'
      ? 'localhost'
      : address.includes(':')
        ? `[${address}]`
        : address;
  return `http://${host}:${port}`;
}

/** The origin a listening server answers at (its actual port: a server asked for port 0 gets a free one). */
export function originOfServer(server: Server): string | undefined {
  const address = server.address();
  return address && typeof address === 'object' ? originOfAddress(address) : undefined;
}

export function createPortalAddress(configured: string | undefined): PortalAddress {
  let listened: string | undefined;
  const origin = () => {
    const known = configured ?? listened;
    if (!known)
      throw new Error(
        'The portal address is not known: set PUBLIC_ORIGIN, or make links only once the server listens',
      );
    return known;
  };
  return {
    origin,
    link(pathAndFragment) {
      if (!pathAndFragment.startsWith('/'))
        throw new Error(`A portal link starts with /: ${pathAndFragment}`);
      return `${origin()}${pathAndFragment}`;
    },
    listening(at) {
      listened = at;
    },
  };
}
