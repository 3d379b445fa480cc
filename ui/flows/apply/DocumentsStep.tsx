import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { FormDefinition } from '../../../machines/forms/types';
import { documentsFor } from '../../../machines/forms';
import { FileLine, focusType, MB, UploadPanel, UploadRules } from '../upload/UploadPanel';
import type { ApplyActor } from './apply-store';
import { type DocumentList, listDocuments, removeDocument, uploadDocument } from './documents-api';

/**
 * Upload Documents (spec §2, §5): the documents the form needs, from the catalogue. A document type is
 * chosen first; then a PDF is dropped or chosen and uploaded with a progress bar. The server checks the
 * file (PDF, landscape A4 or A3, size limits) and its message says what is wrong, naming the file and the
 * page. Each uploaded document can be replaced or removed. "Continue" needs every required document.
 */
export function DocumentsStep({ actor, definition }: { actor: ApplyActor; definition: FormDefinition }) {
  const { t } = useTranslation(['wizard', 'forms']);
  const applicationNo = useSelector(actor, (s) => s.context.applicationNo) ?? '';
  const showMissing = useSelector(actor, (s) => s.context.showDocumentErrors);
  const [list, setList] = useState<DocumentList | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [type, setType] = useState('');
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const typeRef = useRef<HTMLDivElement>(null);

  const labelOf = (id: string) => t(`forms:documents.${id}`);
  // Only the documents that apply to these answers (no letter of authorisation for an individual).
  const answers = useSelector(actor, (s) => s.context.answers);
  const documents = documentsFor(definition, answers);

  const refresh = useCallback(async () => {
    if (!applicationNo) return;
    try {
      const loaded = await listDocuments(applicationNo);
      setList(loaded);
      setLoadFailed(false);
      const present = new Set(loaded.documents.map((d) => d.documentType));
      for (const d of definition.documents)
        actor.send({ type: 'documents.change', id: d.id, present: present.has(d.id) });
    } catch {
      setLoadFailed(true);
    }
  }, [actor, applicationNo, definition.documents]);

  useEffect(() => {
    // Loaded after the first paint (the list's own state is set when the answer comes).
    const timer = setTimeout(() => void refresh(), 0);
    return () => clearTimeout(timer);
  }, [refresh]);

  async function upload(documentType: string, file: File, onProgress: (fraction: number) => void) {
    await uploadDocument(applicationNo, documentType, file, onProgress);
    setAnnouncement(t('wizard:upload.done', { name: file.name, type: labelOf(documentType) }));
    setType('');
    await refresh();
  }

  async function remove(documentType: string) {
    try {
      await removeDocument(applicationNo, documentType);
      setAnnouncement(t('wizard:upload.removed', { type: labelOf(documentType) }));
      await refresh();
      // The Remove button pressed is gone with its file: focus goes to the document type, the next step.
      focusType(typeRef);
    } catch {
      // The API client shows the error as a toast.
    }
  }

  const uploaded = new Map((list?.documents ?? []).map((d) => [d.documentType, d]));
  const missing = definition.documents.filter((d) => d.required && !uploaded.has(d.id));
  const limits = list?.limits ?? { maxFileBytes: 10 * MB, maxTotalBytes: 50 * MB };

  return (
    <>
      <p>{t('wizard:upload.intro')}</p>
      <UploadRules limits={limits} />

      {showMissing && missing.length > 0 ? (
        <div className="error-summary" role="alert" tabIndex={-1}>
          <h2 className="error-summary__title">{t('wizard:upload.missingTitle')}</h2>
          <ul>
            {missing.map((d) => (
              <li key={d.id}>{labelOf(d.id)}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <section aria-labelledby="documents-list-title">
        <h2 id="documents-list-title">{t('wizard:upload.listTitle')}</h2>
        {loadFailed ? (
          <p className="field__error" role="alert">
            {t('wizard:upload.loadFailed')}{' '}
            <Button className="button button--link" onPress={() => void refresh()}>
              {t('wizard:upload.retry')}
            </Button>
          </p>
        ) : null}
        <ul className="documents">
          {documents.map((d) => {
            const file = uploaded.get(d.id);
            return (
              <li key={d.id} className="documents__item" data-document={d.id}>
                <div className="documents__head">
                  <span className="documents__label">{labelOf(d.id)}</span>{' '}
                  <span className={`badge ${d.required ? 'badge--required' : ''}`}>
                    {d.required ? t('wizard:upload.required') : t('wizard:upload.optional')}
                  </span>
                </div>
                {file ? (
                  <FileLine file={file}>
                    <Button
                      className="button button--link"
                      aria-label={t('wizard:upload.replaceLabel', { type: labelOf(d.id) })}
                      onPress={() => {
                        setType(d.id);
                        focusType(typeRef);
                      }}
                      isDisabled={busy}
                    >
                      {t('wizard:upload.replace')}
                    </Button>
                    <Button
                      className="button button--link"
                      aria-label={t('wizard:upload.removeLabel', { type: labelOf(d.id) })}
                      onPress={() => void remove(d.id)}
                      isDisabled={busy}
                    >
                      {t('wizard:upload.remove')}
                    </Button>
                  </FileLine>
                ) : (
                  <p className="documents__none">{t('wizard:upload.notYet')}</p>
                )}
              </li>
            );
          })}
        </ul>
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
        <Button className="button" onPress={() => actor.send({ type: 'step.back' })}>
          {t('wizard:back')}
        </Button>
        <Button
          className="button button--primary"
          isDisabled={busy}
          onPress={() => actor.send({ type: 'documents.complete' })}
        >
          {t('wizard:upload.continue')}
        </Button>
      </div>
    </>
  );
}
