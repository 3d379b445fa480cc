import { useTranslation } from 'react-i18next';

/**
 * A signature on the case as the portal verified it: the method, when, who signed (an e-Cert's subject,
 * issuer and serial number; iAM Smart's certificate is kept on record) and what the check was.
 */
export function SignatureDetails({
  method,
  signer,
  date,
}: {
  method: string;
  signer: unknown;
  date: string;
}) {
  const { t } = useTranslation('console');
  const s = (typeof signer === 'object' && signer !== null ? signer : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof s[key] === 'string' ? s[key] : null);
  const rows: [string, string | null][] = [
    [t('case.signatureMethod'), t(`case.methods.${method}`, { defaultValue: method })],
    [t('case.signedOn'), date || null],
    [t('case.subject'), text('subject')],
    [t('case.issuer'), text('issuer')],
    [t('case.serialNumber'), text('serialNumber')],
    [t('case.verification'), t(`case.verified.${method}`, { defaultValue: '' }) || null],
  ];
  return (
    <dl className="preview__list">
      {rows
        .filter((r): r is [string, string] => r[1] !== null)
        .map(([term, value]) => (
          <div key={term} className="preview__row">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
