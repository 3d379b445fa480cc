import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { PageHeading } from '../components/PageHeading';
import { formatDate } from '../components/format';

interface OutboxMessage {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  body: string;
  createdAt: string;
  /** When it left; null while it waits (or after every attempt failed: then `error` says why). */
  sentAt: string | null;
  error: string | null;
}

type Load = { state: 'loading' } | { state: 'done'; messages: OutboxMessage[] } | { state: 'unavailable' };

/** Development only: the messages the portal would send, so that a newcomer can log in to demo cases. */
export default function DevOutboxPage() {
  const { t, i18n } = useTranslation('auth');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    api.get<OutboxMessage[]>('dev/outbox', undefined, { quiet: true, noLoading: true }).then(
      (answer) => live && setLoad({ state: 'done', messages: answer.data }),
      () => live && setLoad({ state: 'unavailable' }),
    );
    return () => {
      live = false;
    };
  }, [round]);

  return (
    <article className="content-page content-page--wide">
      <PageHeading>{t('outbox.title')}</PageHeading>
      <p className="lead">{t('outbox.intro')}</p>
      <Button className="button" onPress={() => setRound((r) => r + 1)}>
        {t('outbox.refresh')}
      </Button>
      <div role="status" aria-live="polite">
        {load.state === 'unavailable' ? <p>{t('outbox.notAvailable')}</p> : null}
        {load.state === 'done' && load.messages.length === 0 ? <p>{t('outbox.empty')}</p> : null}
      </div>
      {load.state === 'done' && load.messages.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <caption>{t('outbox.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('outbox.columns.time')}</th>
                <th scope="col">{t('outbox.columns.channel')}</th>
                <th scope="col">{t('outbox.columns.to')}</th>
                <th scope="col">{t('outbox.columns.subject')}</th>
                <th scope="col">{t('outbox.columns.body')}</th>
                <th scope="col">{t('outbox.columns.status')}</th>
              </tr>
            </thead>
            <tbody>
              {load.messages.map((m) => (
                <tr key={m.id}>
                  <td>{formatDate(m.createdAt, i18n.language, true)}</td>
                  <td>{m.channel}</td>
                  <td>{m.to}</td>
                  <td>{m.subject ?? ''}</td>
                  <td className="outbox__body">{m.body}</td>
                  <td>
                    {m.sentAt
                      ? t('outbox.status.sent')
                      : m.error
                        ? t('outbox.status.failed', { error: m.error })
                        : t('outbox.status.queued')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </article>
  );
}
