import { useId } from 'react';
import { Button } from 'react-aria-components';
import { TextField } from '../../components/TextField';
import { normaliseDigits } from '../../../machines/rules/otp';

/**
 * The one-time password step of an appointee's flows (the AP/RSE login and the acceptance of an
 * appointment): where the code went, the code field (digits in any script become ASCII), then verify, send a
 * new code, or change the email / mobile. Each page gives its own texts; the machines' events are the same.
 *
 * The step replaces the Send button a person just pressed, so the code field takes focus when it appears
 * and the "sent" notice is its description: a screen reader says where the code went, and the person types
 * it at once (docs/flows/one-time-code.md, "Focus").
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
  texts: {
    sent: string;
    code: string;
    codeHint?: string;
    verify: string;
    working: string;
    resend: string;
    change: string;
  };
  code: string;
  errorMessage: string | null | undefined;
  busy: boolean;
  onCode: (code: string) => void;
  onResend: () => void;
  onChangeDetails: () => void;
}) {
  const sentId = useId();
  return (
    <>
      <p id={sentId} className="notice notice--info">
        {texts.sent}
      </p>
      <TextField
        {...(id ? { id } : {})}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the focused Send button was just removed
        autoFocus
        aria-describedby={sentId}
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
        {/* Never disabled while verifying: a disabled button would drop focus to the page; the machine
            ignores a second press then, and the label says to wait. */}
        <Button type="submit" className="button button--primary">
          {busy ? texts.working : texts.verify}
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
