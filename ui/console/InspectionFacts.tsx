import { useTranslation } from 'react-i18next';
import type { ConsoleCaseData } from '../../machines/rules/staff';
import type { WrittenText } from '../../machines/rules/staff-words';
import { langOf } from './CaseSubmissions';
import { formatDate } from '../components/format';

/**
 * What the case's rules decide the inspection on (docs/flows/case-lifecycle.md), for the officer: this
 * round's inspection and result, and the applicant's request (the dates asked for, whom to meet, access),
 * so that a date outside them or a result before the date is not a surprise.
 */
export function InspectionFacts({
  rules,
  today,
  written = [],
}: {
  rules: ConsoleCaseData['rules'];
  today: string;
  /** What the party wrote with the request (its history row's words): the `lang` of the contact and notes. */
  written?: readonly WrittenText[];
}) {
  const { t, i18n } = useTranslation('console');
  const request = rules.inspectionRequest;
  const lang = (field: string) => langOf(written.find((w) => w.field === field)?.lang ?? null, i18n.language);
  if (!rules.inspection && !request) return null;
  return (
    <section aria-labelledby="inspection-facts-title">
      <h2 id="inspection-facts-title">{t('case.inspection.title')}</h2>
      <dl className="console__summary">
        {rules.inspection && (
          <>
            <dt>{t('case.inspection.date')}</dt>
            <dd>{formatDate(rules.inspection.date, i18n.language)}</dd>
            <dt>{t('case.inspection.result')}</dt>
            <dd>
              {rules.inspection.result === null
                ? t('case.inspection.none')
                : t(`fields.${rules.inspection.result}`)}
              {rules.inspection.result === null && rules.inspection.date > today && (
                <>
                  {' '}
                  {t('case.inspection.recordFrom', {
                    date: formatDate(rules.inspection.date, i18n.language),
                  })}
                </>
              )}
            </dd>
          </>
        )}
        {request && (
          <>
            <dt>{t('case.inspection.preferred')}</dt>
            <dd>{request.preferredDates.join(', ') || '—'}</dd>
            <dt>{t('case.inspection.contact')}</dt>
            <dd>
              {request.contactName || request.contactTelephone ? (
                <>
                  {request.contactName && (
                    <span lang={lang('inspectionContactName')}>{request.contactName}</span>
                  )}
                  {request.contactName && request.contactTelephone ? ', ' : ''}
                  {request.contactTelephone}
                </>
              ) : (
                '—'
              )}
            </dd>
            <dt>{t('case.inspection.access')}</dt>
            <dd className="console__written" lang={request.accessNotes ? lang('accessNotes') : undefined}>
              {request.accessNotes ?? '—'}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
