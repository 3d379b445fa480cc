import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import {
  Button,
  DropZone,
  FileTrigger,
  Label,
  ProgressBar,
  Text,
  isFileDropItem,
} from 'react-aria-components';
import type { DropEvent } from '@react-types/shared';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/ChoiceFields';
import { UploadError } from './upload-file';

export const MB = 1024 * 1024;
export const sizeText = (bytes: number) =>
  bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The rules a file must meet (spec §5), from the server's limits. */
export function UploadRules({ limits }: { limits: { maxFileBytes: number; maxTotalBytes: number } }) {
  const { t } = useTranslation('wizard');
  return (
    <ul className="upload__rules">
      <li>{t('upload.rulePdf')}</li>
      <li>{t('upload.ruleLandscape')}</li>
      <li>
        {t('upload.ruleSize', {
          file: Math.round(limits.maxFileBytes / MB),
          total: Math.round(limits.maxTotalBytes / MB),
        })}
      </li>
    </ul>
  );
}

/** An uploaded file: ✓, its name, pages and size, then its actions (replace, remove). */
export function FileLine({
  file,
  children,
}: {
  file: { fileName: string; pageCount: number; bytes: number };
  children: ReactNode;
}) {
  const { t } = useTranslation('wizard');
  return (
    <div className="documents__file">
      <span>
        <span aria-hidden="true">✓ </span>
        {t('upload.fileLine', { name: file.fileName, count: file.pageCount, size: sizeText(file.bytes) })}
      </span>
      <span className="documents__actions">{children}</span>
    </div>
  );
}

/** Moves focus to the document type's select (the type comes first, spec §5). */
export const focusType = (typeRef: RefObject<HTMLDivElement | null>) =>
  typeRef.current?.querySelector('button')?.focus();

/**
 * Uploading one file (spec §5): the document type first, then a PDF dropped or chosen, sent with a
 * progress bar; the server's refusal is shown as it said it (naming the file and the page). Used by the
 * application's Upload Documents (ui/flows/apply/DocumentsStep.tsx) and a follow-up's upload step on a case
 * (ui/flows/case/CaseUploadsStep.tsx); the list of what is uploaded is theirs.
 */
export function UploadPanel({
  types,
  type,
  onTypeChange,
  typeRef,
  upload,
  announcement,
  onBusyChange,
}: {
  types: readonly { value: string; label: string }[];
  type: string;
  onTypeChange: (type: string) => void;
  typeRef: RefObject<HTMLDivElement | null>;
  /** Sends the file; rejects with an UploadError whose message is the server's. */
  upload: (type: string, file: File, onProgress: (fraction: number) => void) => Promise<void>;
  /** What the live region says (an upload done, a file removed). */
  announcement: string;
  onBusyChange?: (busy: boolean) => void;
}) {
  const { t } = useTranslation('wizard');
  const [typeError, setTypeError] = useState('');
  const [uploadError, setUploadError] = useState('');
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const busy = progress !== null;
  const panelRef = useRef<HTMLElement>(null);
  // Each finished upload (done or refused): focus goes back to Choose file, which the upload disabled (and,
  // when the type is cleared for the next file, replaced), so it never falls to the page's body; the result
  // is said by the live region or the alert below (docs/forms.md, "Errors and focus").
  const [finished, setFinished] = useState(0);
  useEffect(() => {
    if (finished === 0) return;
    const active = document.activeElement;
    // Only when focus was lost or is still in the panel: never taken from where the person went meanwhile.
    if (active && active !== document.body && !panelRef.current?.contains(active)) return;
    document.getElementById('choose-file')?.focus();
  }, [finished]);

  function askForType() {
    setTypeError(t('upload.typeFirst'));
    focusType(typeRef);
  }

  async function send(file: File) {
    setUploadError('');
    if (!type) {
      askForType();
      return;
    }
    setTypeError('');
    setProgress({ name: file.name, fraction: 0 });
    onBusyChange?.(true);
    try {
      await upload(type, file, (fraction) => setProgress({ name: file.name, fraction }));
    } catch (e) {
      setUploadError(e instanceof UploadError ? e.message : t('upload.failed'));
    } finally {
      setProgress(null);
      onBusyChange?.(false);
      setFinished((n) => n + 1);
    }
  }

  async function onDrop(e: DropEvent) {
    const files = e.items.filter(isFileDropItem);
    if (files.length !== 1) {
      setUploadError(t('upload.oneFile'));
      return;
    }
    const first = files[0];
    if (first) await send(await first.getFile());
  }

  return (
    <section aria-labelledby="upload-title" className="upload" ref={panelRef}>
      <h2 id="upload-title">{t('upload.uploadTitle')}</h2>
      <div ref={typeRef}>
        <SelectField
          id="document-type"
          label={t('upload.type')}
          placeholder={t('choose')}
          isRequired
          value={type}
          errorMessage={typeError}
          onChange={(v) => {
            onTypeChange(v);
            if (v) setTypeError('');
          }}
          options={types}
        />
      </div>
      <DropZone
        className="dropzone"
        aria-label={t('upload.dropLabel')}
        isDisabled={busy}
        getDropOperation={(dragged) =>
          dragged.has('application/pdf') || dragged.has('Files') ? 'copy' : 'cancel'
        }
        onDrop={(e) => void onDrop(e)}
      >
        <Text slot="label" className="dropzone__text">
          {t('upload.drop')}
        </Text>
        {/* Spec §5: the type first. Without one, the button asks for it instead of opening the chooser. */}
        {type ? (
          <FileTrigger
            acceptedFileTypes={['application/pdf', '.pdf']}
            onSelect={(files) => {
              const file = files?.[0];
              if (file) void send(file);
            }}
          >
            <Button className="button" isDisabled={busy} id="choose-file">
              {t('upload.choose')}
            </Button>
          </FileTrigger>
        ) : (
          <Button className="button" isDisabled={busy} id="choose-file" onPress={askForType}>
            {t('upload.choose')}
          </Button>
        )}
      </DropZone>
      {progress ? (
        <ProgressBar className="progress" value={Math.round(progress.fraction * 100)}>
          {({ percentage }) => (
            <>
              <Label>{t('upload.progress', { name: progress.name })}</Label>
              <span className="progress__value">{Math.round(percentage ?? 0)}%</span>
              {/* The width is set through the CSSOM (allowed by the CSP, unlike a style attribute in markup). */}
              <div className="progress__track" aria-hidden="true">
                <div className="progress__bar" style={{ width: `${Math.round(percentage ?? 0)}%` }} />
              </div>
            </>
          )}
        </ProgressBar>
      ) : null}
      {uploadError ? (
        <p className="field__error upload__error" role="alert">
          {uploadError}
        </p>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}
