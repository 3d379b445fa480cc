import { describe, expect, it } from 'vitest';
import {
  developmentHkicKeys,
  HkicKeyFormatError,
  HkicKeyUnknownError,
  HkicSealRefusedError,
  openHkic,
  parseHkicKeys,
  sealHkic,
} from '../../api/modules/shared/hkic-crypto';
import { HKIC_FIELD_IDS, openAnswers, sealAnswers } from '../../api/modules/shared/answers-at-rest';

/**
 * HKIC numbers at rest (docs/decisions/035-hkic-at-rest.md): AES-256-GCM under versioned keys, the field's
 * id as additional data; the first key of HKIC_KEYS seals, every one opens.
 */

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const K1 = `k1:${key(1)}`;
const K2 = `k2:${key(2)}`;
const HKIC = 'A1234563';

describe('sealing an HKIC', () => {
  it('opens what it sealed, and the sealed text names its key and holds no digit of the number', () => {
    const ring = parseHkicKeys(K1);

    const sealed = sealHkic(ring, 'applicantHkic', HKIC);

    expect(sealed).toMatch(/^hkic:k1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('1234563');
    expect(openHkic(ring, 'applicantHkic', sealed)).toBe(HKIC);
  });

  it('seals the same number differently each time (a fresh IV)', () => {
    const ring = parseHkicKeys(K1);

    expect(sealHkic(ring, 'applicantHkic', HKIC)).not.toBe(sealHkic(ring, 'applicantHkic', HKIC));
  });

  it('says which key is missing when a value was sealed under a key no longer configured', () => {
    const sealed = sealHkic(parseHkicKeys(K2), 'applicantHkic', HKIC);

    expect(() => openHkic(parseHkicKeys(K1), 'applicantHkic', sealed)).toThrow(HkicKeyUnknownError);
    expect(() => openHkic(parseHkicKeys(K1), 'applicantHkic', sealed)).toThrow(
      /sealed with key "k2", which HKIC_KEYS does not hold \(it holds k1\)/,
    );
  });

  it('refuses a changed ciphertext', () => {
    const ring = parseHkicKeys(K1);
    const sealed = sealHkic(ring, 'applicantHkic', HKIC);
    const raw = Buffer.from(sealed.slice('hkic:k1:'.length), 'base64url');
    raw[14] = raw[14]! ^ 1;

    expect(() => openHkic(ring, 'applicantHkic', `hkic:k1:${raw.toString('base64url')}`)).toThrow(
      HkicSealRefusedError,
    );
  });

  it('refuses a value cut short or not sealed at all', () => {
    const ring = parseHkicKeys(K1);

    expect(() => openHkic(ring, 'applicantHkic', 'hkic:k1:AAAA')).toThrow(HkicSealRefusedError);
    expect(() => openHkic(ring, 'applicantHkic', 'hkic:')).toThrow(HkicSealRefusedError);
    expect(() => openHkic(ring, 'applicantHkic', HKIC)).toThrow(HkicSealRefusedError);
  });

  it('refuses a value moved to another field (the field id is authenticated)', () => {
    const ring = parseHkicKeys(K1);
    const sealed = sealHkic(ring, 'applicantHkic', HKIC);

    expect(() => openHkic(ring, 'contactHkic', sealed)).toThrow(HkicSealRefusedError);
  });

  it('refuses a value sealed under another key given the same id', () => {
    const sealed = sealHkic(parseHkicKeys(K1), 'applicantHkic', HKIC);

    expect(() => openHkic(parseHkicKeys(`k1:${key(9)}`), 'applicantHkic', sealed)).toThrow(
      HkicSealRefusedError,
    );
  });

  it('rotates: after k2 is put first, new values are sealed with k2 and k1 still opens the old ones', () => {
    const before = sealHkic(parseHkicKeys(K1), 'applicantHkic', HKIC);
    const rotated = parseHkicKeys(`${K2},${K1}`);

    const after = sealHkic(rotated, 'applicantHkic', HKIC);

    expect(after.startsWith('hkic:k2:')).toBe(true);
    expect(openHkic(rotated, 'applicantHkic', before)).toBe(HKIC);
    expect(openHkic(rotated, 'applicantHkic', after)).toBe(HKIC);
  });
});

describe('HKIC_KEYS', () => {
  it.each([
    ['', /at least one key/],
    ['k1', /key 1 must be id:base64/],
    ['bad id:' + key(1), /key 1 must be id:base64/],
    [`k1:${Buffer.alloc(16).toString('base64')}`, /key "k1" must be 32 random bytes/],
    ['k1:not base64!', /key "k1" must be 32 random bytes/],
    [`${K1},${K1}`, /key id "k1" is listed twice/],
  ])('refuses %j', (text, message) => {
    expect(() => parseHkicKeys(text)).toThrow(HkicKeyFormatError);
    expect(() => parseHkicKeys(text)).toThrow(message);
  });

  it('accepts base64url keys and spaces around the commas', () => {
    const ring = parseHkicKeys(` k2:${Buffer.alloc(32, 255).toString('base64url')} , ${K1} `);

    expect(ring.sealWith).toBe('k2');
    expect([...ring.keys.keys()]).toEqual(['k2', 'k1']);
  });

  it('has a fixed development key, the same in every process', () => {
    const sealed = sealHkic(developmentHkicKeys(), 'applicantHkic', HKIC);

    expect(sealed.startsWith('hkic:dev:')).toBe(true);
    expect(openHkic(developmentHkicKeys(), 'applicantHkic', sealed)).toBe(HKIC);
  });
});

describe('answers at rest', () => {
  it('knows the catalogue’s HKIC fields', () => {
    expect(HKIC_FIELD_IDS).toEqual(['applicantHkic']);
  });

  it('seals only the HKIC field and opens it back', () => {
    const answers = { applicantHkic: 'A123456(3)', applicantNameEn: 'CHAN Tai Man', studentCount: '12' };

    const sealed = sealAnswers(answers);

    expect(sealed.applicantHkic).toMatch(/^hkic:dev:/);
    expect({ ...sealed, applicantHkic: undefined }).toEqual({ ...answers, applicantHkic: undefined });
    expect(answers.applicantHkic).toBe('A123456(3)');
    expect(openAnswers(sealed)).toEqual(answers);
  });

  it('reads a plain value of a row written before sealing as it is', () => {
    const old = { applicantHkic: HKIC, applicantNameEn: 'CHAN Tai Man' };

    expect(openAnswers(old)).toBe(old);
  });

  it('leaves answers without an HKIC, an empty HKIC and what is not an object alone', () => {
    const none = { applicantNameEn: 'CHAN' };
    const empty = { applicantHkic: '' };

    expect(sealAnswers(none)).toBe(none);
    expect(sealAnswers(empty)).toBe(empty);
    expect(sealAnswers(null)).toBeNull();
    expect(openAnswers(undefined)).toBeUndefined();
  });

  it('seals a value typed to look sealed, so it reads back as typed', () => {
    const answers = { applicantHkic: 'hkic:dev:AAAA' };

    expect(openAnswers(sealAnswers(answers))).toEqual(answers);
  });
});
