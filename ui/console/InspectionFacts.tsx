import { useTranslation } from 'react-i18next';
import type { ConsoleCaseData } from '../../machines/rules/staff';
import { formatDate } from '../components/format';

/**
 * What the case's rules decide the inspection on (docs/flows/case-lifecycle.md), for the officer: this
 * round's inspection and result, and the applicant's request (the dates asked for, whom to meet, access),
 * so that a date outside them or a result before the date is not a surprise.
 */
export function InspectionFacts({ rules, today }: { rules: ConsoleCaseData['rules']; today: string }) {
  const { t, i18n } = useTranslation('console');
  const request = rules.inspectionRequest;
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
            <dd>{[request.contactName, request.contactTelephone].filter(Boolean).join(', ') || '—'}</dd>
            <dt>{t('case.inspection.access')}</dt>
            <dd>{request.accessNotes ?? '—'}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
