import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffSettings } from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import { FieldInput, ProblemSummary } from './fields';
import { StaffAdmin } from './StaffAdmin';

/** /console/admin: the admin's master data (the staff idle timeout) and staff administration (StaffAdmin). */
export default function AdminPage() {
  const { t } = useTranslation('console');
  const [idle, setIdle] = useState('');
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    consoleApi.get<StaffSettings>('settings').then((s) => setIdle(String(s.staffIdleMinutes)), setError);
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
      <StaffAdmin />
    </>
  );
}
