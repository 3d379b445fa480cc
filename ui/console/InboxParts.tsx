import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { INBOX_TABS, type ActivityKind, type NoticesData } from '../../machines/rules/staff-inbox';
import { consoleApi } from './api';
import { useConsoleTime } from './time';

/**
 * The officer's inbox on the work queue (docs/decisions/039-officer-inbox.md): its tabs (links, the
 * current one with aria-current), the "New activity" marker of a case in words, the notices, and their
 * unread count in the console's header.
 */

/** Asks the header's count to read the notices again (after they were marked read). */
const NOTICES_CHANGED = 'console:notices';

/** The inbox's tabs and "All cases": links to the queue page, the one shown marked as current. */
export function InboxTabs({ tab, approver = false }: { tab: string; approver?: boolean }) {
  const { t } = useTranslation('console');
  const tabs = [
    ...INBOX_TABS.map((k) => ({ key: k, to: `/console?tab=${k}` })),
    // A senior officer's proposed decisions to approve or send back (docs/decisions/040-four-eyes-decisions.md).
    ...(approver ? [{ key: 'approval', to: '/console?awaiting=me' }] : []),
    { key: 'all', to: '/console' },
  ];
  return (
    <nav aria-label={t('inbox.tabs')} className="console__tabs">
      <ul className="console__inline">
        {tabs.map(({ key, to }) => {
          const current = key === (tab || 'all');
          return (
            <li key={key}>
              <Link
                to={to}
                aria-current={current ? 'page' : undefined}
                className={current ? 'console__tab--current' : undefined}
              >
                {t(`inbox.tab.${key}`)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** "New activity: Documents submitted, Message" on a queue row, in words (not colour only). */
export function ActivityMarker({ kinds }: { kinds: readonly ActivityKind[] | undefined }) {
  const { t, i18n } = useTranslation('console');
  if (!kinds || kinds.length === 0) return null;
  const separator = i18n.language === 'en' ? ', ' : '、';
  return (
    <strong className="console__flag console__activity">
      {' '}
      {t('inbox.newActivity', { what: kinds.map((k) => t(`inbox.kinds.${k}`)).join(separator) })}
    </strong>
  );
}

/** The notices of the officer's cases, newest first; seen here, they are marked read up to the newest. */
export function InboxNotices() {
  const { t } = useTranslation('console');
  const time = useConsoleTime();
  const [data, setData] = useState<NoticesData | null>(null);
  useEffect(() => {
    let live = true;
    consoleApi.get<NoticesData>('notices').then(
      async (shown) => {
        if (!live) return;
        setData(shown);
        const newest = shown.notices[0];
        if (shown.unread > 0 && newest) {
          await consoleApi.post('notices/read', { through: newest.at }).catch(() => undefined);
          window.dispatchEvent(new Event(NOTICES_CHANGED));
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!data) return null;
  return (
    <section aria-labelledby="inbox-notices" className="console__notices">
      <h2 id="inbox-notices">{t('inbox.notices')}</h2>
      {data.notices.length === 0 ? (
        <p>{t('inbox.noNotices')}</p>
      ) : (
        <ul>
          {data.notices.map((n) => (
            <li key={`${n.applicationNo}-${n.kind}-${n.at}`}>
              {n.unread && <strong>{t('inbox.unread')} </strong>}
              <Link to={`/console/cases/${encodeURIComponent(n.applicationNo)}`}>{n.applicationNo}</Link>
              {': '}
              {t(`inbox.kinds.${n.kind}`)} ({t(`inbox.by.${n.by}`, { defaultValue: n.by })}, {time(n.at)})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The header's link to the notices, with how many are unread (read again on each page and when read). */
export function NoticeCount({ path }: { path: string }) {
  const { t } = useTranslation('console');
  const [unread, setUnread] = useState<number | null>(null);
  const load = useCallback(() => {
    consoleApi.get<NoticesData>('notices').then(
      (d) => setUnread(d.unread),
      () => setUnread(null),
    );
  }, []);
  useEffect(() => {
    load();
    window.addEventListener(NOTICES_CHANGED, load);
    return () => window.removeEventListener(NOTICES_CHANGED, load);
  }, [load, path]);
  return <Link to="/console?tab=handle#inbox-notices">{t('inbox.count', { count: unread ?? 0 })}</Link>;
}
