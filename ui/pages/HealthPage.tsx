import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../api';
import { PageHeading } from '../components/PageHeading';
import { formatDate } from '../components/format';

interface Health {
  api: 'up' | 'down';
  database: 'up' | 'down';
  time: string;
}

type Result = { state: 'loading' } | { state: 'done'; health: Health };

async function fetchHealth(): Promise<Health> {
  try {
    return (await api.get<Health>('health', undefined, { quiet: true, noLoading: true })).data;
  } catch (e) {
    // 503 still carries the envelope that says which part is down.
    const data = e instanceof ApiError ? (e.body?.data as Health | null | undefined) : undefined;
    return data ?? { api: 'down', database: 'down', time: new Date().toISOString() };
  }
}

/** The health check page: whether the API and the database answer. */
export default function HealthPage() {
  const { t, i18n } = useTranslation('pages');
  const [result, setResult] = useState<Result>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    void fetchHealth().then((health) => {
      if (live) setResult({ state: 'done', health });
    });
    return () => {
      live = false;
    };
  }, [round]);
  const check = () => {
    setResult({ state: 'loading' });
    setRound((r) => r + 1);
  };

  return (
    <article className="content-page health">
      <PageHeading>{t('health.title')}</PageHeading>
      <div role="status" aria-live="polite">
        {result.state === 'loading' ? (
          <p>{t('common:loading')}</p>
        ) : (
          <>
            <dl className="health__list">
              <div>
                <dt>{t('health.api')}</dt>
                <dd data-state={result.health.api}>
                  {result.health.api === 'up' ? t('health.ok') : t('health.down')}
                </dd>
              </div>
              <div>
                <dt>{t('health.database')}</dt>
                <dd data-state={result.health.database}>
                  {result.health.database === 'up' ? t('health.ok') : t('health.down')}
                </dd>
              </div>
            </dl>
            <p>
              {t('health.checkedAt', {
                time: formatDate(result.health.time, i18n.language, true),
              })}
            </p>
          </>
        )}
      </div>
      <Button className="button" onPress={check}>
        {t('health.refresh')}
      </Button>
    </article>
  );
}
