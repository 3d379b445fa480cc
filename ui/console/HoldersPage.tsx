import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useOutletContext } from 'react-router-dom';
import { may } from '../../machines/rules/authorisation';
import type { RegistrationHolderData } from '../../machines/rules/staff-holders';
import { ConsoleApiError, consoleApi } from './api';
import type { ConsoleContext } from './ConsoleLayout';
import { FieldInput, ProblemSummary } from './fields';
import { useConsoleTime } from './time';
import { HolderResetForm } from './HolderResetForm';

/**
 * /console/holders: the registered AP/RSE (docs/console.md, "Registered AP/RSE"). A senior officer or an
 * admin looks up a registration number as people type it, sees its holder (contacts masked), the cases the
 * holder is appointed to and the holders reset before, and resets the holder with a reason and a confirm
 * step (docs/decisions/025-registration-holders.md).
 */
export default function HoldersPage() {
  const { t, i18n } = useTranslation('console');
  const { me } = useOutletContext<ConsoleContext>();
  const [number, setNumber] = useState('');
  const [data, setData] = useState<RegistrationHolderData | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [missing, setMissing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const [focusResult, setFocusResult] = useState(0);

  useEffect(() => {
    if (focusResult) resultRef.current?.focus();
  }, [focusResult]);
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const time = useConsoleTime();
  if (me && !may(me.role, 'console.holders')) return <h1>{t('holdersPage.title')}</h1>;

  const load = async (value: string) => {
    try {
      const found = await consoleApi.get<RegistrationHolderData>('holders', { registrationNumber: value });
      setData(found);
      setError(null);
      return found;
    } catch (err) {
      setData(null);
      setError(err instanceof ConsoleApiError ? err : null);
      return null;
    }
  };

  const search = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    if (!number.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    if (await load(number)) setFocusResult((n) => n + 1);
  };

  const name = (en: string, zh: string | null) => (i18n.language === 'en' || !zh ? en : `${zh} ${en}`);
  const when = (iso: string | null) => (iso ? time(iso) : '');
  const holder = data?.holder ?? null;

  return (
    <>
      <h1>{t('holdersPage.title')}</h1>
      <p>{t('holdersPage.intro')}</p>
      <ProblemSummary error={error} />
      <form
        className="console__filters"
        role="search"
        aria-label={t('holdersPage.search')}
        onSubmit={(e) => void search(e)}
        noValidate
      >
        <FieldInput
          id="holder-number"
          label={t('holdersPage.number')}
          hint={t('holdersPage.numberHint')}
          error={missing ? t('holdersPage.numberRequired') : error?.fields[0]?.message}
          value={number}
          onChange={setNumber}
        />
        <button type="submit" className="button button--primary">
          {t('holdersPage.submit')}
        </button>
      </form>
      {done && (
        <p className="console__done" role="status" tabIndex={-1} ref={doneRef}>
          {done}
        </p>
      )}
      {data && (
        <section aria-labelledby="holder-result">
          <h2 id="holder-result" tabIndex={-1} ref={resultRef}>
            {t('holdersPage.holderOf', { number: data.registrationNumber })}
          </h2>
          {holder ? (
            <>
              <dl className="console__summary">
                <dt>{t('holdersPage.name')}</dt>
                <dd>{name(holder.nameEn, holder.nameZh)}</dd>
                <dt>{t('holdersPage.email')}</dt>
                <dd>{holder.email}</dd>
                <dt>{t('holdersPage.mobile')}</dt>
                <dd>{holder.mobile}</dd>
                <dt>{t('holdersPage.established')}</dt>
                <dd>{when(holder.establishedAt)}</dd>
                <dt>{t('holdersPage.signer')}</dt>
                <dd>{t(`holdersPage.signers.${holder.signer ?? 'none'}`)}</dd>
                <dt>{t('holdersPage.language')}</dt>
                <dd>{t(`holdersPage.languages.${holder.language}`)}</dd>
              </dl>
              <p className="console__note">{t('holdersPage.masked')}</p>
              <h3>{t('holdersPage.cases')}</h3>
              {holder.cases.length ? (
                <div className="table-wrap">
                  <table className="table">
                    <caption className="visually-hidden">{t('holdersPage.cases')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('holdersPage.applicationNo')}</th>
                        <th scope="col">{t('holdersPage.status')}</th>
                        <th scope="col">{t('holdersPage.accepted')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {holder.cases.map((c) => (
                        <tr key={c.applicationNo}>
                          <td>
                            <Link to={`/console/cases/${encodeURIComponent(c.applicationNo)}`}>
                              {c.applicationNo}
                            </Link>
                          </td>
                          <td>{t(`auth:history.statuses.${c.status}`, { defaultValue: c.status })}</td>
                          <td>{when(c.acceptedAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ) : (
                <p>{t('holdersPage.noCases')}</p>
              )}
              <HolderResetForm
                key={holder.id}
                registrationNumber={data.registrationNumber}
                holderId={holder.id}
                holderName={name(holder.nameEn, holder.nameZh)}
                cases={holder.cases.length}
                onDone={async (refusal) => {
                  await load(data.registrationNumber);
                  if (refusal) setError(refusal);
                  else setDone(t('holdersPage.reset.done', { number: data.registrationNumber }));
                }}
              />
            </>
          ) : (
            <p>{t('holdersPage.noHolder', { number: data.registrationNumber })}</p>
          )}
          {data.history.length > 0 && (
            <>
              <h3>{t('holdersPage.history')}</h3>
              <div className="table-wrap">
                <table className="table">
                  <caption className="visually-hidden">{t('holdersPage.history')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('holdersPage.name')}</th>
                      <th scope="col">{t('holdersPage.established')}</th>
                      <th scope="col">{t('holdersPage.endedAt')}</th>
                      <th scope="col">{t('holdersPage.endedBy')}</th>
                      <th scope="col">{t('holdersPage.reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.history.map((h) => (
                      <tr key={h.endedAt}>
                        <td>{name(h.nameEn, h.nameZh)}</td>
                        <td>{when(h.establishedAt)}</td>
                        <td>{when(h.endedAt)}</td>
                        <td>{h.endedBy ? name(h.endedBy.nameEn, h.endedBy.nameZh) : ''}</td>
                        <td>{h.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>
      )}
    </>
  );
}
