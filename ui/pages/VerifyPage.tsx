import { useEffect, useId, useRef, useState } from 'react';
import { Button, FileTrigger, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { VerifyAnswer } from '../../machines/rules/verify';
import { api, ApiError } from '../api';
import { PageHeading } from '../components/PageHeading';
import { TextField } from '../components/TextField';
import { focusField } from '../components/ErrorSummary';
import { formatDate } from '../components/format';

/**
 * /verify: anyone checks whether the department issued a letter (by its reference, its PDF file, or both)
 * and whether it still stands (docs/decisions/038-sealed-letters.md). The result takes focus, so a
 * screen reader reads it out.
 */

type State =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'done'; answer: VerifyAnswer; round: number }
  | { state: 'failed'; message: string; onReference: boolean; round: number };

async function check(reference: string, file: File | null, lang: string): Promise<VerifyAnswer> {
  if (file) {
    const form = new FormData();
    if (reference.trim()) form.append('reference', reference);
    form.append('file', file, file.name);
    return (await api.upload<VerifyAnswer>(`verify?lang=${lang}`, form, { quiet: true })).data;
  }
  return (await api.get<VerifyAnswer>('verify', { reference, lang }, { quiet: true })).data;
}

function Result({ answer }: { answer: VerifyAnswer }) {
  const { t, i18n } = useTranslation('pages');
  const date = (d: string | null) => (d ? formatDate(d, i18n.language) : '');
  if (!answer.issued && answer.fileMatches === false && answer.kind)
    return (
      <>
        <p className="verify__verdict" data-verdict="changed">
          <strong>{t('verify.fileChanged')}</strong>
        </p>
        <p>{t('verify.fileChangedText')}</p>
      </>
    );
  if (!answer.issued)
    return (
      <>
        <p className="verify__verdict" data-verdict="unknown">
          <strong>{t('verify.notIssued')}</strong>
        </p>
        <p>{answer.fileMatches === false ? t('verify.fileNotIssuedText') : t('verify.notIssuedText')}</p>
      </>
    );
  return (
    <>
      <p className="verify__verdict" data-verdict={answer.standing === 'STANDS' ? 'stands' : 'ended'}>
        <strong>{t('verify.issued')}</strong>
      </p>
      <dl className="verify__facts">
        <div>
          <dt>{t('verify.kindLabel')}</dt>
          <dd>{answer.kind ? t(`verify.kind.${answer.kind}`) : ''}</dd>
        </div>
        <div>
          <dt>{t('verify.referenceLabel')}</dt>
          <dd>{answer.reference}</dd>
        </div>
        <div>
          <dt>{t('verify.issuedOnLabel')}</dt>
          <dd>{date(answer.issuedOn)}</dd>
        </div>
        <div>
          <dt>{t('verify.standingLabel')}</dt>
          <dd>
            {answer.standing
              ? t(`verify.standing.${answer.standing}`, { date: date(answer.standingSince) })
              : ''}
          </dd>
        </div>
      </dl>
      {answer.fileMatches ? <p>{t('verify.fileMatches')}</p> : null}
    </>
  );
}

export default function VerifyPage() {
  const { t, i18n } = useTranslation('pages');
  const [reference, setReference] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<State>({ state: 'idle' });
  const [round, setRound] = useState(0);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const ids = { file: useId(), fileHint: useId(), result: useId() };

  // Each answer (or refusal that is not the reference's own) moves focus to the result's heading.
  useEffect(() => {
    if (result.state === 'done' || (result.state === 'failed' && !result.onReference))
      resultHeading.current?.focus();
  }, [result]);

  const submit = async () => {
    const next = round + 1;
    setRound(next);
    if (!reference.trim() && !file) {
      setResult({ state: 'failed', message: t('verify.referenceOrFile'), onReference: true, round: next });
      focusField(referenceId);
      return;
    }
    setResult({ state: 'checking' });
    try {
      setResult({ state: 'done', answer: await check(reference, file, i18n.language), round: next });
    } catch (e) {
      const body = e instanceof ApiError ? e.body : null;
      const onReference =
        e instanceof ApiError && e.status === 400 && JSON.stringify(body?.data ?? '').includes('reference');
      setResult({
        state: 'failed',
        message: body?.meta.message ?? t('verify.failed'),
        onReference,
        round: next,
      });
      if (onReference) focusField(referenceId);
    }
  };
  const referenceId = 'verify-reference';
  const referenceError = result.state === 'failed' && result.onReference ? result.message : null;

  return (
    <article className="content-page verify">
      <PageHeading>{t('verify.title')}</PageHeading>
      <p>{t('verify.intro')}</p>
      <Form
        className="form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          id={referenceId}
          label={t('verify.reference')}
          description={t('verify.referenceHint')}
          value={reference}
          onChange={(value) => {
            setReference(value);
            // A refusal of the reference goes once it is corrected.
            if (result.state === 'failed' && result.onReference) setResult({ state: 'idle' });
          }}
          errorMessage={referenceError}
          autoComplete="off"
          size={30}
        />
        <div className="form__field">
          <p className="field__label" id={ids.file}>
            {t('verify.file')}
          </p>
          <p className="field__hint" id={ids.fileHint}>
            {t('verify.fileHint')}
          </p>
          <div className="form__actions">
            <FileTrigger
              acceptedFileTypes={['application/pdf', '.pdf']}
              onSelect={(files) => setFile(files?.[0] ?? null)}
            >
              <Button className="button" aria-describedby={`${ids.file} ${ids.fileHint}`}>
                {t('verify.chooseFile')}
              </Button>
            </FileTrigger>
            <span aria-live="polite">
              {file ? t('verify.chosen', { name: file.name }) : t('verify.noFile')}
            </span>
            {file ? (
              <Button className="button button--link" onPress={() => setFile(null)}>
                {t('verify.removeFile')}
              </Button>
            ) : null}
          </div>
        </div>
        <div className="form__actions">
          <Button type="submit" className="button button--primary" isDisabled={result.state === 'checking'}>
            {result.state === 'checking' ? t('verify.checking') : t('verify.check')}
          </Button>
        </div>
      </Form>
      {result.state === 'done' || (result.state === 'failed' && !result.onReference) ? (
        <section className="verify__result" aria-labelledby={ids.result} key={result.round}>
          <h2 id={ids.result} ref={resultHeading} tabIndex={-1}>
            {t('verify.resultTitle')}
          </h2>
          {result.state === 'done' ? <Result answer={result.answer} /> : <p role="alert">{result.message}</p>}
        </section>
      ) : null}
    </article>
  );
}
