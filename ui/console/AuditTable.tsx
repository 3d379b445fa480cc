import { useTranslation } from 'react-i18next';
import type { AuditRowData } from '../../machines/rules/staff';
import { useConsoleTime } from './time';

const show = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** Audit events: when, who (actor and reference), what, before → after, the case and the address. */
export function AuditTable({ rows, withCase = false }: { rows: AuditRowData[]; withCase?: boolean }) {
  const { t } = useTranslation('console');
  const time = useConsoleTime();
  return (
    <div className="table-wrap">
      <table className="table">
        <caption>{t('case.audit')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('case.when')}</th>
            <th scope="col">{t('case.who')}</th>
            <th scope="col">{t('case.what')}</th>
            {withCase && <th scope="col">{t('auditPage.applicationNo')}</th>}
            <th scope="col">{t('case.change')}</th>
            <th scope="col">{t('case.address')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id}>
              <td>{time(a.at)}</td>
              <td>
                {a.actor} ({a.actorRef})
              </td>
              <td>
                {a.event} {a.reference}
              </td>
              {withCase && <td>{a.applicationNo}</td>}
              <td className="console__json">
                {show(a.before)} → {show(a.after)}
              </td>
              <td>
                {a.address}
                {a.requestId && <span className="console__request-id"> {a.requestId}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
