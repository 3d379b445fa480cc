import type { Db } from '../../../drizzle/db';
import { formByKey } from '../../../machines/forms';
import type { CaseCheckRequest } from '../../../machines/rules/selfcert';
import type { Clock } from '../../clock';
import { NotFoundError } from '../../http/errors';
import { certifiedCase } from '../selfcert';
import type { DraftAccess } from './drafts.service';

/**
 * The wizard's check of the case a self-certification names, on leaving Part A and Part B
 * (docs/flows/apply.md, docs/decisions/021-self-certification.md): the same rule as at signing and
 * submission (`certifiedCase`), without the certifier until Part B sends it. A refusal is the rule's 400
 * at `answers.<field>` in the caller's language; the answer to a good case names only the number asked.
 */
export interface CaseCheck {
  check(draft: DraftAccess, request: CaseCheckRequest): Promise<{ caseApplicationNo: string }>;
}

export function createCaseCheck({ db, clock }: { db: Db; clock: Clock }): CaseCheck {
  return {
    async check(draft, { answers }) {
      const definition = formByKey(draft.formKey);
      // Only a self-certification names a case: for any other form there is nothing to check here.
      if (!definition?.selfCertification) throw new NotFoundError();
      await certifiedCase(db, definition, answers, clock.now(), {
        certifier: answers.certifierRegNo !== undefined,
      });
      return { caseApplicationNo: answers.caseApplicationNo };
    },
  };
}
