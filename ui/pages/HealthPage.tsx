import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { HTTPError } from 'ky';
import { api, type Envelope } from '../api/client';
import { PageHeading } from '../components/PageHeading';

interface Health {
  api: 'up' | 'down';
  database: 'up' | 'down';
  time: string;
}

type Result = { state: 'loading' } | { state: 'done'; health: Health };

async function fetchHealth(): Promise<Health> {
  try {
    const body = await api.get('health').json<Envelope<Health>>();
    return body.data;
  } catch (e) {
    // 503 still carries the envelope that says which part is down.
    if (e instanceof HTTPError) {
      const body = (await e.response.json().catch(() => null)) as Envelope<Health> | null;
      if (body?.data) return body.data;
    }
    return { api: 'down', database: 'down', time: new Date().toISOString() };
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
                time: new Date(result.health.time).toLocaleString(i18n.language === 'en' ? 'en-HK' : 'zh-HK'),
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
