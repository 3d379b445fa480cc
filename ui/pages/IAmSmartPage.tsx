import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../components/PageHeading';
import {
  type StatusEntry,
  statusEntryOf,
  storeStatusEntry,
  takeReturnPath,
} from '../flows/signing/iamsmart-return';

/**
 * The return page of iAM Smart (spec §2, §4): it reads `code` and `state`, or `error_code`, stores a
 * status entry, and goes back to the application the signing started from (remembered by the signing
 * screen). The application page shows an error entry as an error toast after 2 seconds. Without a
 * remembered page, it says what happened and links home.
 */
export default function IAmSmartPage() {
  const { t } = useTranslation(['common', 'signing']);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [entry] = useState<StatusEntry | null>(() => statusEntryOf(params));
  const [returnPath] = useState<string | null>(() => takeReturnPath());

  useEffect(() => {
    if (!entry) return;
    storeStatusEntry(entry);
    if (returnPath) void navigate(returnPath, { replace: true });
  }, [entry, returnPath, navigate]);

  return (
    <article className="content-page bare-page">
      <PageHeading>{t('common:iamsmart.title')}</PageHeading>
      {entry?.type === 'error' ? (
        <p role="alert">{t('common:iamsmart.error', { code: entry.code })}</p>
      ) : entry?.type === 'success' ? (
        <p role="status">{t('signing:return.signed')}</p>
      ) : (
        <p>{t('common:iamsmart.none')}</p>
      )}
      <p>
        <Link to={returnPath ?? '/'}>{returnPath ? t('signing:return.back') : t('common:backHome')}</Link>
      </p>
    </article>
  );
}
