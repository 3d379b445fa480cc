import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { CaseUpload } from '../../../machines/flows/case-action.machine';
import type { RequiredDocument } from '../../../machines/forms/types';
import type { CaseUploadData } from '../../../machines/rules/case';
import { FileLine, focusType, MB, UploadPanel, UploadRules } from '../upload/UploadPanel';
import { caseUploadsApi, type UploadFollowUp } from './case-uploads-api';

/**
 * The upload step of a follow-up on a case (Submit Supporting Document): one or more files, with the
 * application's uploader and checks (ui/flows/upload/UploadPanel.tsx). Every file is listed with its pages
 * and size and can be removed; files uploaded earlier and not yet submitted (a reload, a session that came
 * back) are listed too, from the server — only those of this follow-up (`followUp`: the type chosen on the
 * form, the request it answers); another type's start empty. At least one file to go on.
 */
export function CaseUploadsStep({
  followUp,
  documents,
  showErrors,
  onChange,
  onBack,
  onNext,
}: {
  followUp: UploadFollowUp;
  documents: readonly RequiredDocument[];
  showErrors: boolean;
  onChange: (uploads: CaseUpload[]) => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation(['case', 'wizard', 'forms']);
  const [files, setFiles] = useState<CaseUploadData[]>([]);
  const [limits, setLimits] = useState({ maxFileBytes: 10 * MB, maxTotalBytes: 50 * MB });
  const [loadFailed, setLoadFailed] = useState(false);
  // One type: it is chosen already (the type of the document was chosen on the form).
  const [type, setType] = useState(documents.length === 1 ? (documents[0]?.id ?? '') : '');
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const typeRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const labelOf = (id: string) => t(`forms:${documents.find((d) => d.id === id)?.labelKey ?? id}`);

  function show(next: CaseUploadData[]) {
    setFiles(next);
    onChange(next.map((f) => ({ id: f.id, documentType: f.documentType, fileName: f.fileName })));
  }

  async function load() {
    try {
      const list = await caseUploadsApi.list(followUp);
      setLimits(list.limits);
      show(list.uploads.filter((u) => documents.some((d) => d.id === u.documentType)));
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }

  useEffect(() => {
    // Once, when the step opens, after the first paint (the list's state is set when the answer comes).
    const timer = setTimeout(() => void load(), 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (showErrors && files.length === 0) errorRef.current?.focus();
  }, [showErrors, files.length]);

  async function upload(documentType: string, file: File, onProgress: (fraction: number) => void) {
    const saved = await caseUploadsApi.upload(followUp, documentType, file, onProgress);
    show([...files, saved]);
    setAnnouncement(t('wizard:upload.done', { name: file.name, type: labelOf(documentType) }));
    if (documents.length > 1) setType('');
  }

  async function remove(file: CaseUploadData) {
    try {
      await caseUploadsApi.remove(file.id);
      show(files.filter((f) => f.id !== file.id));
      setAnnouncement(t('case:uploads.removed', { name: file.fileName }));
      focusType(typeRef);
    } catch {
      // The API client shows the error as a toast.
    }
  }

  return (
    <>
      <p>{t('case:uploads.intro')}</p>
      <UploadRules limits={limits} />
      {showErrors && files.length === 0 ? (
        <div className="error-summary" role="alert" tabIndex={-1} ref={errorRef}>
          <h2 className="error-summary__title">{t('wizard:upload.missingTitle')}</h2>
          <p>{t('case:uploads.none')}</p>
        </div>
      ) : null}
      <section aria-labelledby="case-files-title">
        <h2 id="case-files-title">{t('case:uploads.listTitle')}</h2>
        {loadFailed ? (
          <p className="field__error" role="alert">
            {t('wizard:upload.loadFailed')}{' '}
            <Button className="button button--link" onPress={() => void load()}>
              {t('wizard:upload.retry')}
            </Button>
          </p>
        ) : null}
        {files.length === 0 ? (
          <p className="documents__none">{t('wizard:upload.notYet')}</p>
        ) : (
          <ol className="documents">
            {files.map((f) => (
              <li key={f.id} className="documents__item">
                <FileLine file={f}>
                  <Button
                    className="button button--link"
                    aria-label={t('case:uploads.removeLabel', { name: f.fileName })}
                    onPress={() => void remove(f)}
                    isDisabled={busy}
                  >
                    {t('wizard:upload.remove')}
                  </Button>
                </FileLine>
              </li>
            ))}
          </ol>
        )}
      </section>
      <UploadPanel
        types={documents.map((d) => ({ value: d.id, label: labelOf(d.id) }))}
        type={type}
        onTypeChange={setType}
        typeRef={typeRef}
        upload={upload}
        announcement={announcement}
        onBusyChange={setBusy}
      />
      <div className="form__actions">
        <Button className="button" onPress={onBack}>
          {t('wizard:back')}
        </Button>
        <Button className="button button--primary" isDisabled={busy} onPress={onNext}>
          {t('case:continue')}
        </Button>
      </div>
    </>
  );
}
