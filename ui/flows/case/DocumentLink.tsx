import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { CaseDocumentData } from '../../../machines/rules/case';
import { casesApi } from '../../api/cases';

/** A document of a history row, named by its type (and its file's name when the row has several of it). */
export function DocumentLink({
  document: d,
  applicationNo,
  named = false,
}: {
  document: CaseDocumentData;
  applicationNo: string;
  named?: boolean;
}) {
  const { t } = useTranslation(['case', 'wizard', 'forms']);
  const type =
    d.kind === 'application'
      ? t('case:page.applicationForm')
      : t(`forms:documents.${d.kind}`, {
          defaultValue: t(`forms:followUp.submitDocument.${d.kind}`, { defaultValue: d.fileName }),
        });
  const name = named ? t('case:page.documentNamed', { type, file: d.fileName }) : type;
  if (!d.downloadable) return <span>{t('case:page.expired', { name })}</span>;
  return (
    <Button
      className="button button--link"
      aria-label={t('case:page.download', { name })}
      onPress={() => void casesApi.download(d.id, `${applicationNo} ${d.fileName}`)}
    >
      {name}
    </Button>
  );
}
