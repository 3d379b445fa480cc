import { useCallback, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { PageHeading } from '../components/PageHeading';
import { formatDate } from '../components/format';

interface PhoneRequest {
  txId: string;
  identificationCode: string;
  hash: string;
  expiresAt: string;
}

type Load = { state: 'loading' } | { state: 'done'; requests: PhoneRequest[] } | { state: 'unavailable' };
type Action = 'approve' | 'decline' | 'no-signing-function' | 'other-hkic';

const ACTIONS: { action: Action; key: string }[] = [
  { action: 'approve', key: 'approve' },
  { action: 'decline', key: 'decline' },
  { action: 'no-signing-function', key: 'noSigning' },
  { action: 'other-hkic', key: 'otherHkic' },
];

/**
 * Development only (/dev/iamsmart): the iAM Smart sandbox's phone. It lists the signing requests waiting
 * for the app (with the identification code the signing screen shows) and answers one: approve, decline,
 * an account without the signing function (D70004) or a signer with another HKIC (D70005).
 */
export default function DevIamSmartPage() {
  const { t, i18n } = useTranslation('signing');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [answered, setAnswered] = useState('');

  const refresh = useCallback(async () => {
    try {
      const answer = await api.get<PhoneRequest[]>('dev/iamsmart', undefined, {
        quiet: true,
        noLoading: true,
      });
      setLoad({ state: 'done', requests: answer.data });
    } catch {
      setLoad({ state: 'unavailable' });
    }
  }, []);

  useEffect(() => {
    const first = setTimeout(() => void refresh(), 0);
    const timer = setInterval(() => void refresh(), 3000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [refresh]);

  async function act(request: PhoneRequest, action: Action) {
    try {
      const answer = await api.post<{ code: string }>(`dev/iamsmart/${encodeURIComponent(request.txId)}`, {
        action,
      });
      setAnswered(t('phone.done', { code: answer.data.code }));
    } finally {
      await refresh();
    }
  }

  return (
    <article className="content-page content-page--wide">
      <PageHeading>{t('phone.title')}</PageHeading>
      <p className="lead">{t('phone.intro')}</p>
      <Button className="button" onPress={() => void refresh()}>
        {t('phone.refresh')}
      </Button>
      <div role="status" aria-live="polite">
        {answered ? <p>{answered}</p> : null}
        {load.state === 'unavailable' ? <p>{t('phone.notAvailable')}</p> : null}
        {load.state === 'done' && load.requests.length === 0 ? <p>{t('phone.empty')}</p> : null}
      </div>
      {load.state === 'done' && load.requests.length > 0 ? (
        <div className="table-wrap">
          <table className="table">
            <caption>{t('phone.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('phone.code')}</th>
                <th scope="col">{t('phone.hash')}</th>
                <th scope="col">{t('phone.expires')}</th>
                <th scope="col">{t('phone.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {load.requests.map((r) => (
                <tr key={r.txId} data-code={r.identificationCode}>
                  <td className="phone__code">{r.identificationCode}</td>
                  <td>
                    <code className="phone__hash">{r.hash}</code>
                  </td>
                  <td>{formatDate(r.expiresAt, i18n.language, true)}</td>
                  <td>
                    <div className="phone__actions">
                      {ACTIONS.map(({ action, key }) => (
                        <Button
                          key={action}
                          className={`button ${action === 'approve' ? 'button--primary' : ''}`}
                          aria-label={t('phone.actionLabel', {
                            action: t(`phone.${key}`),
                            code: r.identificationCode,
                          })}
                          onPress={() => void act(r, action)}
                        >
                          {t(`phone.${key}`)}
                        </Button>
                      ))}
                    </div>
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
