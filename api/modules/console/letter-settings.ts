import type { Db } from '../../../drizzle/db';
import type { Language } from '../../../machines/rules/language';
import { findMasterData } from '../shared';

/**
 * The settings of the letters the department issues (docs/decisions/041-letter-parts.md): the letterhead,
 * read from master data (type `letterhead`) with the defaults below when a value is not set, and the legal
 * basis each letter rests on, by the case's type of application (docs/forms.md; the ordinances named in
 * /work/shared/design/DOMAIN.md "Who does what"). The drawing code (letter-parts.ts) holds none of them.
 */

/** Text in the three languages a letter is written in. */
export type Trilingual = Readonly<Record<Language, string>>;

export interface Letterhead {
  nameEn: string;
  nameZh: string;
  address: Trilingual;
  telephone: string;
  website: string;
}

/** Master data type of the letterhead's values; each code below holds one value. */
export const LETTERHEAD_TYPE = 'letterhead';

/** The letterhead when master data has no value for a part (the department's published details). */
export const LETTERHEAD_DEFAULTS: Letterhead = {
  nameEn: 'Buildings Department',
  nameZh: '屋宇署',
  address: {
    en: 'North Tower, West Kowloon Government Offices, 11 Hoi Ting Road, Yau Ma Tei, Kowloon, Hong Kong',
    tc: '香港九龍油麻地海庭道11號西九龍政府合署北座',
    sc: '香港九龙油麻地海庭道11号西九龙政府合署北座',
  },
  telephone: '2626 1616',
  website: 'www.bd.gov.hk',
};

/** The master data code of each part of the letterhead. */
const LETTERHEAD_CODES = {
  nameEn: 'name_en',
  nameZh: 'name_zh',
  addressEn: 'address_en',
  addressTc: 'address_tc',
  addressSc: 'address_sc',
  telephone: 'telephone',
  website: 'website',
} as const;

/** The letterhead as master data sets it now, each part not set taken from LETTERHEAD_DEFAULTS. */
export async function letterheadOf(db: Db): Promise<Letterhead> {
  const values = Object.fromEntries(
    await Promise.all(
      Object.entries(LETTERHEAD_CODES).map(async ([part, code]) => {
        const [entry] = await findMasterData(db, { type: LETTERHEAD_TYPE, code });
        return [part, entry?.dataValue.trim() || undefined] as const;
      }),
    ),
  ) as Partial<Record<keyof typeof LETTERHEAD_CODES, string>>;
  const d = LETTERHEAD_DEFAULTS;
  return {
    nameEn: values.nameEn ?? d.nameEn,
    nameZh: values.nameZh ?? d.nameZh,
    address: {
      en: values.addressEn ?? d.address.en,
      tc: values.addressTc ?? d.address.tc,
      sc: values.addressSc ?? d.address.sc,
    },
    telephone: values.telephone ?? d.telephone,
    website: values.website ?? d.website,
  };
}

/**
 * The law a case's registration rests on, by application type: a school under the Education Ordinance
 * (s12 new, s20 added premises), a child care centre under the Child Care Services Ordinance (a mutual
 * help centre's exemption under s11B), a kindergarten-cum-child care centre under both, the premises of
 * a non-local course notified under Cap. 493B s5.
 */
export const LEGAL_BASIS: Readonly<Record<string, Trilingual>> = {
  NEWSCH: {
    en: 'section 12 of the Education Ordinance (Cap. 279)',
    tc: '《教育條例》（第279章）第12條',
    sc: '《教育条例》（第279章）第12条',
  },
  EXTSCH: {
    en: 'section 20 of the Education Ordinance (Cap. 279)',
    tc: '《教育條例》（第279章）第20條',
    sc: '《教育条例》（第279章）第20条',
  },
  NLHE: {
    en: 'section 5 of the Non-local Higher and Professional Education (Regulation) Regulations (Cap. 493B)',
    tc: '《非本地高等及專業教育（規管）規例》（第493B章）第5條',
    sc: '《非本地高等及专业教育（规管）规例》（第493B章）第5条',
  },
  NEWCCC: {
    en: 'the Child Care Services Ordinance (Cap. 243)',
    tc: '《幼兒服務條例》（第243章）',
    sc: '《幼儿服务条例》（第243章）',
  },
  NEWJOKC: {
    en: 'the Education Ordinance (Cap. 279) and the Child Care Services Ordinance (Cap. 243)',
    tc: '《教育條例》（第279章）及《幼兒服務條例》（第243章）',
    sc: '《教育条例》（第279章）及《幼儿服务条例》（第243章）',
  },
  NEWMUT: {
    en: 'section 11B of the Child Care Services Ordinance (Cap. 243)',
    tc: '《幼兒服務條例》（第243章）第11B條',
    sc: '《幼儿服务条例》（第243章）第11B条',
  },
};

/** The kinds of letter the console issues (docs/console.md, "Issued letters"). */
export type LetterKind =
  | 'letterOfRequirements'
  | 'certificate'
  | 'notice'
  | 'caseReject'
  | 'lorWithdraw'
  | 'certificateRevoke'
  | 'caseReopen';

/** What each letter rests on, `{law}` standing for the case's LEGAL_BASIS. */
export const LETTER_BASIS: Readonly<Record<LetterKind, Trilingual>> = {
  letterOfRequirements: {
    en: 'The Buildings Department advises the registration authority under {law} on the building safety of the premises. The premises are to meet the requirements below before the department can advise that they are safe for the use applied for.',
    tc: '屋宇署就根據{law}進行的註冊，向註冊當局提供處所樓宇安全方面的意見。處所須符合下列規定事項，屋宇署方可表示處所適合作所申請的用途。',
    sc: '屋宇署就根据{law}进行的注册，向注册当局提供处所楼宇安全方面的意见。处所须符合下列规定事项，屋宇署方可表示处所适合作所申请的用途。',
  },
  certificate: {
    en: 'Issued to the registration authority and the applicant for the registration of the premises under {law}.',
    tc: '為根據{law}註冊處所而向註冊當局及申請人發出。',
    sc: '为根据{law}注册处所而向注册当局及申请人发出。',
  },
  notice: {
    en: 'Issued to the registration authority and the applicant for the registration of the premises under {law}.',
    tc: '為根據{law}註冊處所而向註冊當局及申請人發出。',
    sc: '为根据{law}注册处所而向注册当局及申请人发出。',
  },
  caseReject: {
    en: 'The application was made for the registration of the premises under {law}.',
    tc: '本申請乃為根據{law}註冊處所而提出。',
    sc: '本申请乃为根据{law}注册处所而提出。',
  },
  lorWithdraw: {
    en: 'The Letter of Requirements was issued for the registration of the premises under {law}.',
    tc: '該規定事項函件乃為根據{law}註冊處所而發出。',
    sc: '该规定事项函件乃为根据{law}注册处所而发出。',
  },
  certificateRevoke: {
    en: 'The certificate was issued for the registration of the premises under {law}.',
    tc: '該證明書乃為根據{law}註冊處所而發出。',
    sc: '该证明书乃为根据{law}注册处所而发出。',
  },
  caseReopen: {
    en: 'The application was made for the registration of the premises under {law}.',
    tc: '本申請乃為根據{law}註冊處所而提出。',
    sc: '本申请乃为根据{law}注册处所而提出。',
  },
};

/** The sentence of the legal basis of a letter of `kind` on a case of `applicationType`, in `language`. */
export function legalBasis(kind: LetterKind, applicationType: string, language: Language): string {
  const law = LEGAL_BASIS[applicationType] ?? LEGAL_BASIS.NEWSCH!;
  return LETTER_BASIS[kind][language].replace('{law}', law[language]);
}
