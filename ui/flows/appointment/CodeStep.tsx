import { Button } from 'react-aria-components';
import { TextField } from '../../components/TextField';
import { normaliseDigits } from '../../../machines/rules/otp';

/**
 * The one-time password step of an appointee's flows (the AP/RSE login and the acceptance of an
 * appointment): the code field (digits in any script become ASCII), then verify, send a new code, or change
 * the email / mobile. Each page gives its own texts; the machines' events are the same.
 */
export function CodeStep({
  id,
  texts,
  code,
  errorMessage,
  busy,
  onCode,
  onResend,
  onChangeDetails,
}: {
  id?: string;
  texts: { code: string; codeHint?: string; verify: string; resend: string; change: string };
  code: string;
  errorMessage: string | null | undefined;
  busy: boolean;
  onCode: (code: string) => void;
  onResend: () => void;
  onChangeDetails: () => void;
}) {
  return (
    <>
      <TextField
        {...(id ? { id } : {})}
        label={texts.code}
        {...(texts.codeHint ? { description: texts.codeHint } : {})}
        value={code}
        onChange={(v) => onCode(normaliseDigits(v))}
        inputMode="numeric"
        autoComplete="one-time-code"
        name="otp"
        size={8}
        errorMessage={errorMessage ?? undefined}
      />
      <div className="form__actions">
        <Button type="submit" className="button button--primary" isDisabled={busy}>
          {texts.verify}
        </Button>
        <Button className="button" onPress={onResend}>
          {texts.resend}
        </Button>
        <Button className="button button--link" onPress={onChangeDetails}>
          {texts.change}
        </Button>
      </div>
    </>
  );
}
