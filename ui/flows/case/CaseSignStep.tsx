import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useActorRef } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { signingMachine } from '../../../machines/flows/signing.machine';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { inspectOptions } from '../inspector';
import { HkicHolder } from '../signing/hkic-holder';
import { caseSigningActors, type FollowUpSigned } from './case-signing-actors';

const SignStep = lazy(() => import('../signing/SignStep').then((m) => ({ default: m.SignStep })));

/**
 * The sign step of a follow-up on a case: the signing machine (iAM Smart or e-Cert, its screens and
 * messages as at submission) over the follow-up's answers and files. Its output goes back to the case
 * action machine: the signing's reference (`onSigned`), or back to the step before (`onBack`). An AP or RSE
 * gives their HKIC for iAM Smart; an applicant's is the one of the application.
 */
export function CaseSignStep({
  applicationNo,
  signed,
  needsHkic,
  onSigned,
  onBack,
}: {
  applicationNo: string;
  signed: Omit<FollowUpSigned, 'hkic'>;
  needsHkic: boolean;
  onSigned: (reference: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation(['case', 'appointment']);
  const [hkic] = useState(() => new HkicHolder());
  const [hkicValue, setHkicValue] = useState('');
  // What is signed stays as the step opened (the page gives the step a new key when the files change).
  const [what] = useState(signed);
  const machine = useMemo(
    () =>
      signingMachine.provide({
        actors: caseSigningActors(() => ({
          ...what,
          ...(needsHkic && hkic.get().trim() ? { hkic: hkic.get().trim() } : {}),
        })),
      }),
    [needsHkic, what, hkic],
  );
  const actor = useActorRef(machine, {
    input: { applicationNo, now: () => Date.now() },
    ...inspectOptions(),
  });
  const done = useRef({ onSigned, onBack });
  useEffect(() => {
    done.current = { onSigned, onBack };
  });
  useEffect(() => {
    const subscription = actor.subscribe((s) => {
      if (s.status !== 'done') return;
      if (s.output) done.current.onSigned(s.output.reference);
      else done.current.onBack();
    });
    return () => subscription.unsubscribe();
  }, [actor]);

  return (
    <>
      <p>{t('case:sign.intro')}</p>
      {needsHkic ? (
        <TextField
          id="signer-hkic"
          label={t('appointment:accept.hkic')}
          description={t('appointment:accept.hkicHint')}
          value={hkicValue}
          onChange={(v) => {
            hkic.set(v);
            setHkicValue(v);
          }}
          autoComplete="off"
        />
      ) : null}
      <Suspense fallback={<Spinner />}>
        <SignStep
          actor={actor}
          {...(needsHkic
            ? {
                hkic: {
                  missing: hkicValue.trim() === '',
                  onEnter: () => document.getElementById('signer-hkic')?.focus(),
                },
              }
            : {})}
        />
      </Suspense>
    </>
  );
}
