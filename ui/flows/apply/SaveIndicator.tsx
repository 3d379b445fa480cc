import { Button } from 'react-aria-components';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../components/format';
import type { ApplyActor } from './apply-store';

/**
 * What the wizard says of its draft under the step's heading (docs/flows/apply.md, "Autosave"): whether the
 * answers are saved, and the draft's number and how long it is kept.
 */

export function SaveIndicator({ actor }: { actor: ApplyActor }) {
  const { t, i18n } = useTranslation('wizard');
  const status = useSelector(actor, (s) => s.context.saveStatus);
  const error = useSelector(actor, (s) => s.context.saveError);
  const at = useSelector(actor, (s) => s.context.lastSavedAt);
  // A refusal says what is wrong (the first answer's message, also shown at that answer); only a save
  // that got no answer says the portal could not be reached (docs/flows/apply.md, "Autosave").
  const refusal = useSelector(
    actor,
    (s) => Object.values(s.context.saveRefusals)[0] ?? s.context.saveMessage ?? t('autosave.refusedAnswer'),
  );
  const text =
    error === 'expired'
      ? t('autosave.expired')
      : status === 'saving'
        ? t('autosave.saving')
        : status === 'saved' && at
          ? t('autosave.saved', { time: formatDate(new Date(at).toISOString(), i18n.language, true) })
          : status === 'stale'
            ? t('autosave.stale')
            : status === 'error' && error === 'refused'
              ? t('autosave.refused', { reason: refusal.replace(/[.。\s]+$/u, '') })
              : status === 'error'
                ? t('autosave.error')
                : '';
  return (
    <div className={`save-indicator save-indicator--${status}`}>
      <p role="status" aria-live="polite" aria-atomic="true">
        {text}
      </p>
      {status === 'stale' ? (
        <Button className="button" onPress={() => actor.send({ type: 'draft.reload' })}>
          {t('autosave.reload')}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The draft's number and how long it is kept, from the first autosave on (decision 027): a polite live
 * region that never takes focus. The date only (Hong Kong), so that the saves of one day do not announce
 * it again.
 */
export function DraftNumber({ actor }: { actor: ApplyActor }) {
  const { t, i18n } = useTranslation('wizard');
  const applicationNo = useSelector(actor, (s) => s.context.applicationNo);
  const validUntil = useSelector(actor, (s) => s.context.validUntil);
  return (
    <p className="draft-number" role="status" aria-live="polite" aria-atomic="true">
      {applicationNo && validUntil
        ? t('draftNumber', { number: applicationNo, date: formatDate(validUntil, i18n.language) })
        : null}
    </p>
  );
}
