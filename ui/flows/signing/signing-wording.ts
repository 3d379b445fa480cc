import { createContext, type RefObject, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { SigningEvent } from '../../../machines/flows/signing/types';

export type Send = (event: SigningEvent) => void;
export type Heading = RefObject<HTMLHeadingElement | null>;

/**
 * What is signed, for the words of the screens: the application (the default), or an AP's or RSE's
 * acceptance of their appointment (`signing:appointment.*` replaces the keys it has).
 */
export type SigningWording = 'application' | 'appointment';

export const Wording = createContext<SigningWording>('application');

/** `t` of the signing namespace, in the words of what is signed. */
export function useSigningTranslation() {
  const wording = useContext(Wording);
  const { t, i18n } = useTranslation('signing');
  const tw = (key: string, options?: Record<string, unknown>): string =>
    wording === 'application' ? t(key, options) : t([`${wording}.${key}`, key], options);
  return { t: tw, i18n };
}
