import { beforeEach, describe, expect, it } from 'vitest';
import {
  formA2MessageKey,
  rememberReturnPath,
  statusEntryOf,
  storeStatusEntry,
  takeReturnPath,
  takeStatusEntry,
} from '../../ui/flows/signing/iamsmart-return';

/** A sessionStorage of the tab, as the browser gives it (the module reads `window.sessionStorage`). */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

beforeEach(() => {
  (globalThis as { window?: unknown }).window = { sessionStorage: new MemoryStorage() };
});

describe('the iAM Smart return page (/iamsmart)', () => {
  it('reads an error_code as an error entry with its state', () => {
    expect(statusEntryOf(new URLSearchParams('error_code=D70004&state=abc123'))).toEqual({
      type: 'error',
      code: 'D70004',
      state: 'abc123',
    });
  });

  it('reads code and state as a success entry', () => {
    expect(statusEntryOf(new URLSearchParams('code=auth-1&state=s1'))).toEqual({
      type: 'success',
      code: 'auth-1',
      state: 's1',
    });
  });

  it('ignores a return without parameters and never keeps junk as a code or state', () => {
    expect(statusEntryOf(new URLSearchParams(''))).toBeNull();
    expect(statusEntryOf(new URLSearchParams('error_code=<script>&state=a b'))).toEqual({
      type: 'error',
      code: 'UNKNOWN',
      state: null,
    });
  });

  it('keeps a status entry for one reading only', () => {
    storeStatusEntry({ type: 'error', code: 'D70005', state: null });
    expect(takeStatusEntry()).toEqual({ type: 'error', code: 'D70005', state: null });
    expect(takeStatusEntry()).toBeNull();
  });

  it('returns only to a path of this site, once', () => {
    rememberReturnPath('https://elsewhere.example/x');
    expect(takeReturnPath()).toBeNull();
    rememberReturnPath('//elsewhere.example/x');
    expect(takeReturnPath()).toBeNull();
    rememberReturnPath('/form-a2-step3');
    expect(takeReturnPath()).toBe('/form-a2-step3');
    expect(takeReturnPath()).toBeNull();
  });

  it('translates a code by the FormA2 key, or the general message for a code without one', () => {
    const known = new Set(['signing:FormA2.D70004']);
    expect(formA2MessageKey('D70004', (k) => known.has(k))).toBe('signing:FormA2.D70004');
    expect(formA2MessageKey('D99999', (k) => known.has(k))).toBe('signing:FormA2.default');
  });
});
