import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffAccountData, StaffSettings } from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import { FieldInput, ProblemSummary } from './fields';

/** /console/admin: the admin's master data (the staff idle timeout) and the staff accounts. */
export default function AdminPage() {
  const { t, i18n } = useTranslation('console');
  const [idle, setIdle] = useState('');
  const [accounts, setAccounts] = useState<StaffAccountData[]>([]);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    consoleApi.get<StaffSettings>('settings').then((s) => setIdle(String(s.staffIdleMinutes)), setError);
    consoleApi.get<StaffAccountData[]>('accounts').then(setAccounts, setError);
  }, []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    try {
      await consoleApi.put<StaffSettings>('settings', { staffIdleMinutes: Number(idle) });
      setError(null);
      setSaved(true);
    } catch (err) {
      setError(err instanceof ConsoleApiError ? err : null);
    }
  };

  return (
    <>
      <h1>{t('adminPage.title')}</h1>
      <ProblemSummary error={error} />
      <h2>{t('adminPage.settings')}</h2>
      <form onSubmit={(e) => void save(e)} noValidate>
        <FieldInput
          id="staff-idle"
          label={t('adminPage.idle')}
          value={idle}
          onChange={setIdle}
          inputMode="numeric"
        />
        <button type="submit" className="button button--primary">
          {t('adminPage.save')}
        </button>
        {saved && <p role="status">{t('adminPage.saved')}</p>}
      </form>
      <h2>{t('adminPage.accounts')}</h2>
      <p>{t('adminPage.create')}</p>
      <div className="table-wrap">
        <table className="table">
          <caption>{t('adminPage.accounts')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('adminPage.username')}</th>
              <th scope="col">{t('adminPage.name')}</th>
              <th scope="col">{t('adminPage.role')}</th>
              <th scope="col">{t('adminPage.active')}</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id}>
                <td>{a.username}</td>
                <td>{i18n.language === 'en' ? a.nameEn : a.nameZh}</td>
                <td>{t(`roles.${a.role}`)}</td>
                <td>{a.active ? t('adminPage.yes') : t('adminPage.no')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
