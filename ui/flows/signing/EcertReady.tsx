import { useId, useState } from 'react';
import { Button, FileTrigger } from 'react-aria-components';
import type { SigningContext } from '../../../machines/flows/signing/types';
import { ErrorSummary } from '../../components/ErrorSummary';
import { type Heading, type Send, useSigningTranslation } from './signing-wording';

const ACCEPTED_FILES = ['.p7s', '.p7m', '.pem'];

/** e-Cert: the text to sign, to copy or save, and the signature file to give back (docs/signing.md). */
export function EcertReady({
  context: c,
  send,
  heading,
}: {
  context: SigningContext;
  send: Send;
  heading: Heading;
}) {
  const { t } = useSigningTranslation();
  const ids = { text: useId(), hint: useId(), file: useId(), error: useId(), button: useId() };
  const [copy, setCopy] = useState<'copied' | 'copyFailed' | null>(null);
  const [attempt, setAttempt] = useState(0);
  const text = c.ecert?.content ?? '';
  const digest = c.ecert?.digest ?? '';
  const error = c.showFileError
    ? t('ecert.errors.required')
    : c.ecertError === 'failed' && c.errorMessage
      ? c.errorMessage
      : c.ecertError
        ? t(`ecert.errors.${c.ecertError}`)
        : null;
  return (
    <section className="signing">
      <ErrorSummary
        title={t('ecert.errorTitle')}
        errors={error ? [{ fieldId: ids.button, message: error }] : []}
        focusKey={`${attempt}-${c.ecertError ?? ''}`}
      />
      <h2 ref={heading} tabIndex={-1}>
        {t('ecert.heading')}
      </h2>
      <p>{t('ecert.instructions')}</p>
      <div className="field">
        <span className="field__label" id={ids.text}>
          {t('ecert.textLabel')}
        </span>
        {/* Focusable so that a keyboard user can scroll a long text and select it. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus (WCAG 2.1.1) */}
        <pre className="signing__text" tabIndex={0} aria-labelledby={ids.text}>
          <code>{text}</code>
        </pre>
        {digest && digest !== text ? (
          <p className="field__hint">{t('ecert.hashLabel', { hash: digest })}</p>
        ) : null}
        <div className="form__actions">
          <Button
            className="button"
            onPress={() => {
              navigator.clipboard.writeText(text).then(
                () => setCopy('copied'),
                () => setCopy('copyFailed'),
              );
            }}
          >
            {t('ecert.copy')}
          </Button>
          <span role="status">{copy ? t(`ecert.${copy}`) : ''}</span>
        </div>
      </div>
      <div className="field">
        <span className="field__label">{t('ecert.fileLabel')}</span>
        <span className="field__hint" id={ids.hint}>
          {t('ecert.fileHint')}
        </span>
        {error ? (
          <span className="field__error" id={ids.error}>
            {error}
          </span>
        ) : null}
        <div className="form__actions">
          <FileTrigger
            acceptedFileTypes={ACCEPTED_FILES}
            onSelect={(files) => {
              const file = files?.[0];
              if (file) send({ type: 'ecert.file', file, name: file.name });
            }}
          >
            <Button
              id={ids.button}
              className="button"
              aria-describedby={[ids.file, ids.hint, error ? ids.error : ''].filter(Boolean).join(' ')}
            >
              {t('ecert.chooseFile')}
            </Button>
          </FileTrigger>
          <span id={ids.file}>
            {c.fileName ? t('ecert.chosen', { name: c.fileName }) : t('ecert.noFile')}
          </span>
        </div>
      </div>
      <div className="form__actions">
        <Button
          className="button button--primary"
          onPress={() => {
            setAttempt((a) => a + 1);
            send({ type: 'ecert.submit' });
          }}
        >
          {t('ecert.submit')}
        </Button>
        <Button className="button" onPress={() => send({ type: 'signing.cancel' })}>
          {t('ecert.cancel')}
        </Button>
      </div>
    </section>
  );
}
