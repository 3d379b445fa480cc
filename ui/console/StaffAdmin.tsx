import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES } from '../../machines/rules/language';
import { STAFF_ROLES } from '../../machines/rules/staff';
import type {
  StaffAdminRow,
  StaffCreated,
  StaffReassigned,
  StaffTotpReset,
} from '../../machines/rules/staff-admin';
import { ConsoleApiError, consoleApi } from './api';
import { FieldInput, FieldSelect, ProblemSummary } from './fields';
import { useConsoleTime } from './time';

/** A time of day in Hong Kong, HH:MM (the end of a lockout). */
const hongKongTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Asia/Hong_Kong',
  }).format(new Date(iso));

type Pending =
  | { kind: 'disable'; row: StaffAdminRow }
  | { kind: 'totpReset'; row: StaffAdminRow }
  | { kind: 'reassign'; row: StaffAdminRow };

/** What is shown once: a new account's first password and enrolment code, or a reset's enrolment code. */
interface Secret {
  username: string;
  password?: string;
  code: string;
}

const EMPTY = {
  username: '',
  role: 'caseOfficer',
  nameEn: '',
  nameZh: '',
  postEn: '',
  postZh: '',
  telephone: '',
  email: '',
  language: 'en',
};
type NewAccount = typeof EMPTY;

/**
 * The admin's staff administration (docs/console.md, "Staff administration";
 * docs/decisions/036-staff-administration.md): the staff list, creating an account, disabling and
 * re-enabling, unlocking, resetting the TOTP and handing an officer's open cases to a colleague. Disabling,
 * resetting and reassigning are confirmed in a dialog first; after each action the focus moves to the
 * status message that says what was done.
 */
export function StaffAdmin() {
  const { t, i18n } = useTranslation('console');
  const at = useConsoleTime();
  const [rows, setRows] = useState<StaffAdminRow[]>([]);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [status, setStatus] = useState('');
  const [secret, setSecret] = useState<Secret | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [toStaffId, setToStaffId] = useState('');
  const [form, setForm] = useState<NewAccount>(EMPTY);
  const [busy, setBusy] = useState(false);
  const statusRef = useRef<HTMLDivElement>(null);

  const nameOf = (r: { nameEn: string; nameZh: string }) => (i18n.language === 'en' ? r.nameEn : r.nameZh);
  const postOf = (r: { postEn: string; postZh: string }) => (i18n.language === 'en' ? r.postEn : r.postZh);

  const load = useCallback(async () => {
    setRows(await consoleApi.get<StaffAdminRow[]>('accounts'));
  }, []);
  useEffect(() => {
    consoleApi
      .get<StaffAdminRow[]>('accounts')
      .then(setRows, (e: unknown) => setError(e instanceof ConsoleApiError ? e : null));
  }, []);
  useEffect(() => {
    if (status) statusRef.current?.focus();
  }, [status]);

  /** Runs an action; on success reloads the list and says what was done (focus goes to the message). */
  async function run(work: () => Promise<string>) {
    setBusy(true);
    setStatus('');
    try {
      const message = await work();
      setError(null);
      await load();
      setStatus(message);
    } catch (e) {
      setError(e instanceof ConsoleApiError ? e : null);
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  const enable = (row: StaffAdminRow) =>
    run(async () => {
      setSecret(null);
      await consoleApi.post(`accounts/${row.id}/enable`, {});
      return t('staffAdmin.done.enable', { name: nameOf(row) });
    });
  const unlock = (row: StaffAdminRow) =>
    run(async () => {
      setSecret(null);
      await consoleApi.post(`accounts/${row.id}/unlock`, {});
      return t('staffAdmin.done.unlock', { name: nameOf(row) });
    });
  const confirm = (p: Pending) =>
    run(async () => {
      setSecret(null);
      if (p.kind === 'disable') {
        await consoleApi.post(`accounts/${p.row.id}/disable`, {});
        return t('staffAdmin.done.disable', { name: nameOf(p.row) });
      }
      if (p.kind === 'totpReset') {
        const reset = await consoleApi.post<StaffTotpReset>(`accounts/${p.row.id}/totp-reset`, {});
        setSecret({ username: p.row.username, code: reset.enrolmentCode });
        return t('staffAdmin.done.totpReset', { name: nameOf(p.row) });
      }
      const moved = await consoleApi.post<StaffReassigned>(`accounts/${p.row.id}/reassign`, {
        toStaffId: Number(toStaffId),
      });
      const to = rows.find((r) => r.id === Number(toStaffId));
      return t('staffAdmin.done.reassign', {
        count: moved.moved.length,
        name: nameOf(p.row),
        to: to ? nameOf(to) : '',
        skipped: moved.skipped,
      });
    });

  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setSecret(null);
      const made = await consoleApi.post<StaffCreated>('accounts', form);
      setSecret({
        username: made.account.username,
        password: made.initialPassword,
        code: made.enrolmentCode,
      });
      setForm(EMPTY);
      return t('staffAdmin.done.create', { name: nameOf(made.account) });
    });
  };

  const stateOf = (r: StaffAdminRow) => {
    const parts = [r.active ? t('staffAdmin.state.active') : t('staffAdmin.state.disabled')];
    if (r.lockedUntil) parts.push(t('staffAdmin.state.locked', { time: hongKongTime(r.lockedUntil) }));
    if (r.totpPending) parts.push(t('staffAdmin.state.totpPending'));
    return parts.join(' · ');
  };
  const colleagues = (from: StaffAdminRow) =>
    rows.filter(
      (r) => r.active && r.id !== from.id && (r.role === 'caseOfficer' || r.role === 'seniorOfficer'),
    );
  const fieldError = (path: string) => error?.fields.find((f) => f.path === path)?.message;
  const field = (key: keyof NewAccount, extra: { type?: string; autoComplete?: string } = {}) => (
    <FieldInput
      id={`staff-new-${key}`}
      label={t(`staffAdmin.field.${key}`)}
      value={form[key]}
      error={fieldError(key)}
      onChange={(v) => setForm((f) => ({ ...f, [key]: v }))}
      {...extra}
    />
  );

  return (
    <section aria-labelledby="staff-admin-title">
      <h2 id="staff-admin-title">{t('staffAdmin.title')}</h2>
      <ProblemSummary error={error} />
      <div
        className="console__status"
        role="status"
        tabIndex={-1}
        ref={statusRef}
        data-testid="staff-admin-status"
      >
        {status && <p>{status}</p>}
        {secret && (
          <div className="console__warning">
            <p>{t('staffAdmin.secret.intro', { username: secret.username })}</p>
            <dl>
              {secret.password && (
                <>
                  <dt>{t('staffAdmin.secret.password')}</dt>
                  <dd>
                    <code data-testid="staff-admin-password">{secret.password}</code>
                  </dd>
                </>
              )}
              <dt>{t('staffAdmin.secret.code')}</dt>
              <dd>
                <code data-testid="staff-admin-code">{secret.code}</code>
              </dd>
            </dl>
            <p>{t('staffAdmin.secret.once')}</p>
          </div>
        )}
      </div>
      <div className="table-wrap">
        <table className="table">
          <caption>{t('staffAdmin.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('staffAdmin.col.name')}</th>
              <th scope="col">{t('staffAdmin.col.username')}</th>
              <th scope="col">{t('staffAdmin.col.role')}</th>
              <th scope="col">{t('staffAdmin.col.post')}</th>
              <th scope="col">{t('staffAdmin.col.state')}</th>
              <th scope="col">{t('staffAdmin.col.lastSignIn')}</th>
              <th scope="col">{t('staffAdmin.col.openCases')}</th>
              <th scope="col">{t('staffAdmin.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-username={r.username}>
                <th scope="row">{nameOf(r)}</th>
                <td>{r.username}</td>
                <td>{t(`roles.${r.role}`)}</td>
                <td>{postOf(r)}</td>
                <td>{stateOf(r)}</td>
                <td>{r.lastSignInAt ? at(r.lastSignInAt) : t('staffAdmin.never')}</td>
                <td>{r.openCases}</td>
                <td>
                  <div className="console__buttons">
                    {r.active ? (
                      <Button
                        className="button"
                        isDisabled={busy}
                        onPress={() => setPending({ kind: 'disable', row: r })}
                      >
                        {t('staffAdmin.action.disable')}
                        <span className="visually-hidden"> {nameOf(r)}</span>
                      </Button>
                    ) : (
                      <Button className="button" isDisabled={busy} onPress={() => void enable(r)}>
                        {t('staffAdmin.action.enable')}
                        <span className="visually-hidden"> {nameOf(r)}</span>
                      </Button>
                    )}
                    {r.lockedUntil && (
                      <Button className="button" isDisabled={busy} onPress={() => void unlock(r)}>
                        {t('staffAdmin.action.unlock')}
                        <span className="visually-hidden"> {nameOf(r)}</span>
                      </Button>
                    )}
                    <Button
                      className="button"
                      isDisabled={busy}
                      onPress={() => setPending({ kind: 'totpReset', row: r })}
                    >
                      {t('staffAdmin.action.totpReset')}
                      <span className="visually-hidden"> {nameOf(r)}</span>
                    </Button>
                    {r.openCases > 0 && (
                      <Button
                        className="button"
                        isDisabled={busy}
                        onPress={() => {
                          setToStaffId(String(colleagues(r)[0]?.id ?? ''));
                          setPending({ kind: 'reassign', row: r });
                        }}
                      >
                        {t('staffAdmin.action.reassign')}
                        <span className="visually-hidden"> {nameOf(r)}</span>
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ModalOverlay
        isOpen={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        isDismissable
        className="modal-overlay"
      >
        <Modal className="modal">
          <Dialog className="dialog" role="alertdialog">
            {pending && (
              <>
                <Heading slot="title">
                  {t(`staffAdmin.confirm.${pending.kind}Title`, { name: nameOf(pending.row) })}
                </Heading>
                <p>
                  {t(`staffAdmin.confirm.${pending.kind}Text`, {
                    name: nameOf(pending.row),
                    count: pending.row.openCases,
                  })}
                </p>
                {pending.kind === 'reassign' && (
                  <FieldSelect
                    id="staff-reassign-to"
                    label={t('staffAdmin.confirm.reassignTo')}
                    value={toStaffId}
                    onChange={setToStaffId}
                    options={colleagues(pending.row).map((c) => ({
                      value: String(c.id),
                      label: `${nameOf(c)} (${t(`roles.${c.role}`)})`,
                    }))}
                  />
                )}
                <div className="console__buttons">
                  <Button className="button" onPress={() => setPending(null)}>
                    {t('staffAdmin.confirm.cancel')}
                  </Button>
                  <Button
                    className="button button--primary"
                    isDisabled={busy || (pending.kind === 'reassign' && !toStaffId)}
                    onPress={() => void confirm(pending)}
                  >
                    {t(`staffAdmin.confirm.${pending.kind}Button`)}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>

      <h2>{t('staffAdmin.create.title')}</h2>
      <p>{t('staffAdmin.create.text')}</p>
      <form onSubmit={create} noValidate aria-labelledby="staff-new-title">
        <h3 id="staff-new-title" className="visually-hidden">
          {t('staffAdmin.create.title')}
        </h3>
        {field('username', { autoComplete: 'off' })}
        <FieldSelect
          id="staff-new-role"
          label={t('staffAdmin.field.role')}
          value={form.role}
          error={fieldError('role')}
          onChange={(v) => setForm((f) => ({ ...f, role: v }))}
          options={STAFF_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
        />
        {field('nameEn')}
        {field('nameZh')}
        {field('postEn')}
        {field('postZh')}
        {field('telephone', { type: 'tel' })}
        {field('email', { type: 'email' })}
        <FieldSelect
          id="staff-new-language"
          label={t('staffAdmin.field.language')}
          value={form.language}
          error={fieldError('language')}
          onChange={(v) => setForm((f) => ({ ...f, language: v }))}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('staffAdmin.create.button')}
        </button>
      </form>
    </section>
  );
}
