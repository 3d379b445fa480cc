import { Button } from 'react-aria-components';
import { Link } from 'react-router-dom';
import { casesApi } from '../../api/cases';
import { useTranslation } from 'react-i18next';
import { fieldsOf } from '../../../machines/forms';
import type { AnswerChange } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { AnswerText } from '../apply/PreviewStep';

/**
 * What an update changes, grouped by the application's sections: each changed answer as before → after,
 * printed as the preview prints answers (in the page's language).
 */
export function UpdateChanges({
  definition,
  changes,
  applicationNo,
}: {
  definition: FollowUpDefinition;
  changes: readonly AnswerChange[];
  applicationNo: string;
}) {
  const { t } = useTranslation(['forms', 'case']);
  const placed = fieldsOf(definition);
  const bySection = new Map<string, { title: string; rows: (AnswerChange & { label: string })[] }>();
  for (const change of changes) {
    const p = placed.find((x) => x.field.id === change.field);
    if (!p) continue;
    const group = bySection.get(p.section.id) ?? { title: t(p.section.titleKey), rows: [] };
    group.rows.push({ ...change, label: t(p.field.labelKey, { applicationNo }) });
    bySection.set(p.section.id, group);
  }
  return (
    <section className="update-changes" aria-labelledby="update-changes-title">
      <h2 id="update-changes-title">{t('case:update.changesTitle', { count: changes.length })}</h2>
      {[...bySection].map(([id, group]) => (
        <section key={id} className="preview" aria-labelledby={`changes-${id}`}>
          <div className="preview__head">
            <h3 id={`changes-${id}`}>{group.title}</h3>
          </div>
          <dl className="preview__list">
            {group.rows.map((row) => {
              const field = placed.find((x) => x.field.id === row.field)?.field;
              if (!field) return null;
              return (
                <div key={row.field} className="preview__row" data-field={row.field}>
                  <dt>{row.label}</dt>
                  <dd>
                    <span className="visually-hidden">{t('case:update.before')} </span>
                    <del>
                      <AnswerText field={field} value={row.before} />
                    </del>
                    <span aria-hidden="true"> → </span>
                    <span className="visually-hidden"> {t('case:update.after')} </span>
                    <ins>
                      <AnswerText field={field} value={row.after} />
                    </ins>
                  </dd>
                </div>
              );
            })}
          </dl>
        </section>
      ))}
    </section>
  );
}

/** What Update Success shows (step 2): carried from step 1 in the navigation's state. */
export interface UpdateDone {
  applicationNo: string;
  reference: string;
  formCode: string;
  changes: AnswerChange[];
}

/** Step 2 of an update form: Update Success, with the reference and what was changed. */
export function UpdateSuccess({
  definition,
  done,
}: {
  definition: FollowUpDefinition;
  done: UpdateDone;
}) {
  const { t } = useTranslation(['case']);
  return (
    <>
      <div className="notice notice--success" role="status">
        <p>{t(`case:done.${definition.key}`, { applicationNo: done.applicationNo })}</p>
        <p>
          {t('case:done.reference')} <strong>{done.reference}</strong>
        </p>
      </div>
      <UpdateChanges definition={definition} changes={done.changes} applicationNo={done.applicationNo} />
      <p className="form__actions">
        <Button
          className="button"
          onPress={() =>
            void casesApi.downloadInformation(`${done.applicationNo}.pdf`).catch(() => undefined)
          }
        >
          {t('case:update.downloadPdf')}
        </Button>
        <Link className="button button--primary" to="/case-history">
          {t('case:toCase')}
        </Link>
      </p>
    </>
  );
}
