import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router-dom';
import { may } from '../../machines/rules/authorisation';
import { PLEDGE_KEYS, type PerformanceData } from '../../machines/rules/pledges';
import { ConsoleApiError, consoleApi } from './api';
import type { ConsoleContext } from './ConsoleLayout';
import { ProblemSummary } from './fields';

/** A month (YYYY-MM) in the page's language: "Dec 2025", "2025年12月". */
function monthName(month: string, language: string): string {
  const date = new Date(`${month}-15T00:00:00Z`);
  const locale = language === 'en' ? 'en-GB' : language === 'sc' ? 'zh-CN' : 'zh-HK';
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: language === 'en' ? 'short' : 'long',
    timeZone: 'UTC',
  }).format(date);
}

/** The stages done on time of all done in a month, over every pledge. */
function totals(month: PerformanceData['months'][number]) {
  const all = Object.values(month.pledges);
  const met = all.reduce((n, p) => n + p.met, 0);
  return { met, done: met + all.reduce((n, p) => n + p.missed, 0) };
}

const CHART = { width: 480, height: 200, bar: 48, top: 16, bottom: 32 };

/**
 * /console/performance (senior officers, admins): open cases by stage now, the performance pledges met by
 * month over the last 6 months, and the median working days from submission to certificate
 * (docs/decisions/044-pledges.md). The chart is an image with its text alternative; the same figures are in
 * the tables below it.
 */
export default function PerformancePage() {
  const { t, i18n } = useTranslation(['console', 'auth']);
  const { me } = useOutletContext<ConsoleContext>();
  const [data, setData] = useState<PerformanceData | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const allowed = !!me && may(me.role, 'console.performance');

  useEffect(() => {
    if (!allowed) return;
    consoleApi.get<PerformanceData>('performance').then(setData, (e: unknown) => {
      setError(e instanceof ConsoleApiError ? e : null);
    });
  }, [allowed]);

  const title = <h1>{t('performance.title')}</h1>;
  if (!allowed) return title;
  const lang = i18n.language;
  const months = data?.months ?? [];
  const sums = months.map(totals);
  const share = (s: { met: number; done: number }) => (s.done ? Math.round((100 * s.met) / s.done) : 0);
  const alt = months
    .map((m, i) =>
      t('performance.chartMonth', { month: monthName(m.month, lang), ...sums[i], percent: share(sums[i]!) }),
    )
    .join(' ');
  const plot = CHART.height - CHART.top - CHART.bottom;
  const step = CHART.width / Math.max(1, months.length);

  return (
    <>
      {title}
      <ProblemSummary error={error} />
      {data && (
        <>
          <h2>{t('performance.stagesTitle')}</h2>
          <div className="table-wrap">
            <table className="table">
              <caption>{t('performance.stagesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('performance.stage')}</th>
                  <th scope="col">{t('performance.cases')}</th>
                </tr>
              </thead>
              <tbody>
                {data.stages.map((s) => (
                  <tr key={s.status}>
                    <th scope="row">{t(`auth:history.statuses.${s.status}`, { defaultValue: s.status })}</th>
                    <td>{s.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2 id="pledges-title">{t('performance.pledgesTitle')}</h2>
          <svg
            role="img"
            aria-labelledby="pledges-chart-title pledges-chart-desc"
            viewBox={`0 0 ${CHART.width} ${CHART.height}`}
            className="console__chart"
            width="100%"
          >
            <title id="pledges-chart-title">{t('performance.chartTitle')}</title>
            <desc id="pledges-chart-desc">{alt}</desc>
            <line
              x1={0}
              x2={CHART.width}
              y1={CHART.height - CHART.bottom}
              y2={CHART.height - CHART.bottom}
              stroke="currentColor"
            />
            {months.map((m, i) => {
              const h = (plot * share(sums[i]!)) / 100;
              const x = i * step + (step - CHART.bar) / 2;
              return (
                <g key={m.month}>
                  <rect
                    x={x}
                    y={CHART.height - CHART.bottom - h}
                    width={CHART.bar}
                    height={h}
                    fill="currentColor"
                  />
                  <text
                    x={x + CHART.bar / 2}
                    y={CHART.height - CHART.bottom - h - 4}
                    textAnchor="middle"
                    fontSize="12"
                  >
                    {sums[i]!.done ? `${share(sums[i]!)}%` : '–'}
                  </text>
                  <text x={x + CHART.bar / 2} y={CHART.height - 10} textAnchor="middle" fontSize="12">
                    {monthName(m.month, lang)}
                  </text>
                </g>
              );
            })}
          </svg>

          <div className="table-wrap">
            <table className="table">
              <caption>{t('performance.pledgesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('performance.pledge')}</th>
                  {months.map((m) => (
                    <th scope="col" key={m.month}>
                      {monthName(m.month, lang)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {PLEDGE_KEYS.map((k) => (
                  <tr key={k}>
                    <th scope="row">{t(`pledges.names.${k}`)}</th>
                    {months.map((m) => (
                      <td key={m.month}>
                        {t('performance.metOf', {
                          met: m.pledges[k].met,
                          done: m.pledges[k].met + m.pledges[k].missed,
                        })}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>{t('performance.certificatesTitle')}</h2>
          <p>
            {data.certificates.medianWorkingDays === null
              ? t('performance.noCertificates')
              : t('performance.median', {
                  count: data.certificates.count,
                  days: data.certificates.medianWorkingDays,
                })}
          </p>
        </>
      )}
    </>
  );
}
