import { firstStepPath } from '../../../machines/routes';
import type { SelfCertOffer } from '../../../machines/rules/selfcert';

/**
 * "Self-certify this case" on an AP's or RSE's case page (docs/decisions/021-self-certification.md): the
 * offered form's first step with the case number and the certifier in the address, e.g.
 * `/form-scs-1-step1?case=A2-2026-000123&certifier=ap&reg=AP(A)%201234`; the wizard checks each value and
 * fills only fields still empty (ui/flows/apply/case-prefill.ts).
 */
export function selfCertLink(applicationNo: string, offer: SelfCertOffer): string {
  const query = new URLSearchParams({
    case: applicationNo,
    certifier: offer.certifierIdentity,
    reg: offer.certifierRegNo,
  });
  return `${firstStepPath(offer.formKey)}?${query.toString()}`;
}
