import { useTranslation } from 'react-i18next';
import type { AuditRowData } from '../../machines/rules/staff';
import { type AuditLine, useAuditWords } from './audit-words';
import { useConsoleTime } from './time';

/** "Label: before → after" (or the one side recorded), with the arrow read as "changed to". */
function Line({ line }: { line: AuditLine }) {
  const { t, i18n } = useTranslation('console');
  return (
    <li>
      {line.label}
      {i18n.language === 'en' ? ': ' : '：'}
      {line.before !== undefined && line.after !== undefined ? (
        <>
          {line.before} <span aria-hidden="true">→</span>
          <span className="visually-hidden">{t('audit.changedTo')}</span> {line.after}
        </>
      ) : (
        (line.after ?? line.before)
      )}
    </li>
  );
}

/** Audit events: when, who, what, what changed (in words), the case and the address. */
export function AuditTable({ rows, withCase = false }: { rows: AuditRowData[]; withCase?: boolean }) {
  const { t } = useTranslation('console');
  const time = useConsoleTime();
  const words = useAuditWords();
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
          {rows.map((a) => {
            const lines = words.lines(a);
            const who = words.who(a);
            return (
              <tr key={a.id}>
                <td>{time(a.at)}</td>
                <td>
                  {who.name ? (
                    <>
                      {who.name} <span className="console__note">{who.role}</span>
                    </>
                  ) : (
                    who.role
                  )}{' '}
                  <span className="console__request-id">{a.actorRef}</span>
                </td>
                <td>
                  {words.what(a)} {a.reference}
                </td>
                {withCase && <td>{a.applicationNo}</td>}
                <td>
                  {lines.length > 0 && (
                    <ul className="console__changes">
                      {lines.map((l) => (
                        <Line key={l.field} line={l} />
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {a.address}
                  {a.requestId && <span className="console__request-id"> {a.requestId}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
