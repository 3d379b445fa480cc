import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerText, applicableFieldIds, fieldsOf, formByKey } from '../../machines/forms';
import type { CaseVersionData } from '../../machines/rules/staff';
import { useConsoleTime } from './time';

const ZH = 'tc';

/**
 * Every version of a case's answers (the submitted one, then each update with what changed), each answer
 * in English and Chinese side by side: the labels and option texts of the form's own definition.
 */
export function VersionList({ versions, formKey }: { versions: CaseVersionData[]; formKey: string | null }) {
  const { t, i18n } = useTranslation('console');
  const time = useConsoleTime();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void i18n
      .loadLanguages(['en', ZH])
      .then(() => i18n.loadNamespaces(['forms', 'wizard']))
      .then(() => setReady(true));
  }, [i18n]);
  const definition = formKey ? formByKey(formKey) : undefined;
  const en = i18n.getFixedT('en', 'forms');
  const zh = i18n.getFixedT(ZH, 'forms');
  const text = (lang: 'en' | 'tc', field: Parameters<typeof answerText>[0], value: unknown) =>
    (answerText(field, value, (key, params) => (lang === 'en' ? en : zh)(key, params), lang) ?? [])
      .map((l) => l.text)
      .join('; ');

  return (
    <>
      <h2>{t('case.versions')}</h2>
      {(!definition || versions.length === 0) && <p>{t('case.noAnswers')}</p>}
      {ready &&
        definition &&
        versions.map((v) => {
          const applicable = applicableFieldIds(definition, v.answers);
          const fields = fieldsOf(definition).filter(({ field }) => applicable.has(field.id));
          return (
            <section key={v.version} aria-labelledby={`version-${v.version}`}>
              <h3 id={`version-${v.version}`}>
                {t('case.version', {
                  version: v.version,
                  date: time(v.createdAt),
                  reference: v.reference ?? '',
                })}
              </h3>
              <h4>{t('case.changes')}</h4>
              {v.changes.length === 0 ? (
                <p>{t('case.noChanges')}</p>
              ) : (
                <ul>
                  {v.changes.map((c) => {
                    const changed = fieldsOf(definition).find(({ field }) => field.id === c.field)?.field;
                    if (!changed) return <li key={c.field}>{c.field}</li>;
                    return (
                      <li key={c.field}>
                        <span lang="en">{en(changed.labelKey)}</span> /{' '}
                        <span lang="zh-HK">{zh(changed.labelKey)}</span>:{' '}
                        <span lang="en">{text('en', changed, c.before) || '—'}</span> →{' '}
                        <span lang="en">{text('en', changed, c.after) || '—'}</span> (
                        <span lang="zh-HK">{text('tc', changed, c.before) || '—'}</span> →{' '}
                        <span lang="zh-HK">{text('tc', changed, c.after) || '—'}</span>)
                      </li>
                    );
                  })}
                </ul>
              )}
              <div className="table-wrap">
                <table className="table">
                  <caption>{t('case.versions')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('case.field')}</th>
                      <th scope="col">{t('case.answerEn')}</th>
                      <th scope="col">{t('case.answerZh')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {fields.map(({ field }) => (
                      <tr key={field.id}>
                        <th scope="row">
                          <span lang="en">{en(field.labelKey)}</span> /{' '}
                          <span lang="zh-HK">{zh(field.labelKey)}</span>
                        </th>
                        <td lang="en">{text('en', field, v.answers[field.id])}</td>
                        <td lang="zh-HK">{text('tc', field, v.answers[field.id])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          );
        })}
    </>
  );
}
