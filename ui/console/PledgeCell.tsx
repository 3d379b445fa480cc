import { useTranslation } from 'react-i18next';
import type { PledgeStanding } from '../../machines/rules/pledges';
import { formatDate } from '../components/format';

/**
 * The current stage's performance pledge of a case in the work queue (docs/decisions/044-pledges.md): the
 * stage and, in words, its due date, "due today", "overdue by N working days" or the clock stopped while
 * the applicant is to act. Late ones are also marked in bold, never by colour only.
 */
export default function PledgeCell({ pledge }: { pledge: PledgeStanding | null }) {
  const { t, i18n } = useTranslation('console');
  if (!pledge) return <>{t('pledges.none')}</>;
  const date = pledge.due ? formatDate(pledge.due, i18n.language) : '';
  const name = t(`pledges.names.${pledge.pledge}`);
  if (pledge.state === 'overdue')
    return (
      <>
        {name}:{' '}
        <strong className="console__flag">{t('pledges.overdue', { count: pledge.overdueBy, date })}</strong>
      </>
    );
  if (pledge.state === 'dueToday')
    return (
      <>
        {name}: <strong className="console__flag">{t('pledges.dueToday')}</strong>
      </>
    );
  if (pledge.state === 'paused') return <>{`${name}: ${t('pledges.paused')}`}</>;
  return <>{`${name}: ${t('pledges.due', { date })}`}</>;
}
