import type { ApplyEvent } from '../../../machines/flows/apply/types';
import { CASE_FIELD } from '../../../machines/forms/selfcert-build';
import type { FormDefinition } from '../../../machines/forms/types';
import { applicationNoSchema } from '../../../machines/rules/otp';
import { parseRegistrationNumber } from '../../../machines/rules/registration';
import { ISSUED_LETTER_FIELDS, withIssuedLetter } from '../../../machines/rules/selfcert';

/**
 * The Letter of Requirements the department issued on the case, when the person is the AP or RSE logged in
 * to that case (its page offered the form with the letter): its reference, date and items replace the
 * letter step's (they are the department's, shown read only: docs/decisions/021-self-certification.md),
 * each unchanged item keeping the compliance the certifier gave; the other fields of the letter (minor
 * works) fill only fields still empty.
 */
export function letterPrefill(
  definition: FormDefinition,
  search: string,
  answers: Readonly<Record<string, unknown>>,
  offered: { applicationNo: string; letter: Readonly<Record<string, unknown>> | null } | undefined,
): ApplyEvent[] {
  if (!definition.selfCertification || !offered?.letter) return [];
  if (new URLSearchParams(search).get('case') !== offered.applicationNo) return [];
  const empty = (v: unknown) => v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
  const issued = withIssuedLetter(answers, offered.letter);
  const rest = Object.entries(offered.letter).filter(
    ([id]) => !(ISSUED_LETTER_FIELDS as readonly string[]).includes(id) && empty(answers[id]),
  );
  return [...Object.entries(issued), ...rest]
    .filter(([id, value]) => JSON.stringify(value) !== JSON.stringify(answers[id]))
    .map(([id, value]) => ({ type: 'field.change', id, value: value as never }));
}

/**
 * "Self-certify this case" from an AP's or RSE's case page (ui/flows/case/self-cert-link.ts,
 * docs/decisions/021-self-certification.md): the case number and the certifier in the first step's
 * address, as the wizard's own `field.change` events. Each value is checked (an application number, an
 * identity, a registration number of that identity's register) and fills only a field still empty.
 */
export function casePrefill(
  definition: FormDefinition,
  search: string,
  answers: Readonly<Record<string, unknown>>,
): ApplyEvent[] {
  if (!definition.selfCertification || search === '') return [];
  const params = new URLSearchParams(search);
  const empty = (id: string) => answers[id] === undefined || answers[id] === '';
  const events: ApplyEvent[] = [];
  const applicationNo = applicationNoSchema.safeParse(params.get('case') ?? '');
  if (applicationNo.success && empty(CASE_FIELD))
    events.push({ type: 'field.change', id: CASE_FIELD, value: applicationNo.data });
  const identity = params.get('certifier');
  if ((identity === 'ap' || identity === 'rse') && empty('certifierIdentity'))
    events.push({ type: 'field.change', id: 'certifierIdentity', value: identity });
  // A number of the other register than the identity chosen is left out (decision 018's rule would refuse it).
  const registration = parseRegistrationNumber(params.get('reg') ?? '');
  const chosen = empty('certifierIdentity') ? identity : answers.certifierIdentity;
  if (registration && registration.identity === chosen && empty('certifierRegNo'))
    events.push({ type: 'field.change', id: 'certifierRegNo', value: registration.value });
  return events;
}
