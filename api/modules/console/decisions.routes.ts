import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { applicationNoSchema } from '../../../machines/rules/otp';
import { isDecisionEvent } from '../../../machines/rules/proposals';
import {
  consoleActionBodySchema,
  internalNoteSchema,
  proposalNoteSchema,
} from '../../../machines/rules/staff';
import { sendOk } from '../../http/envelope';
import { NotFoundError } from '../../http/errors';
import { requestLanguage } from '../../http/i18n';
import { authoriseStaff, currentStaff } from '../auth';
import { audited } from '../shared';
import type { InternalNoteService } from './internal-notes';
import type { ProposalContext, ProposalService } from './proposals';

const idParam = z.coerce.number().int().positive().max(2_147_483_647);
const keyHeader = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/)
  .optional();
const emptyBody = z.object({}).strict();

function contextOf(req: Request): ProposalContext {
  const idempotencyKey = keyHeader.parse(req.get('idempotency-key'));
  return {
    language: requestLanguage(req),
    address: req.ip ?? req.socket.remoteAddress ?? '',
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  };
}

/**
 * The console's decisions by two people and internal notes (docs/decisions/040-four-eyes-decisions.md,
 * docs/api.md), mounted in /api/staff after the staff session is required. Each request is audited
 * (`proposal.*` / `case.note.add`, outcome ok or refused), and a proposal's events are besides the case's
 * actions with their references and audit events (api/modules/cases/case-action.ts).
 */
export function decisionsRouter({
  proposals,
  notes,
}: {
  proposals: ProposalService;
  notes: InternalNoteService;
}): Router {
  const router = Router();
  const caseNo = (req: Request) => applicationNoSchema.parse(req.params.applicationNo);
  /** The work, audited with its outcome. */
  const refusalAudited = <T>(req: Request, res: Response, action: string, work: () => Promise<T>) =>
    audited(
      req,
      action,
      work,
      () => ({ caseNo: caseNo(req), detail: { staffId: currentStaff(res).staff.id } }),
      {
        caseNo: caseNo(req),
      },
    );

  /**
   * POST /api/staff/cases/:applicationNo/proposals/:decision  body { expectedStatus, answers }: propose a
   * certificate (`certificate.issue`), a rejection (`case.reject`) or a revocation (`certificate.revoke`)
   * with the decision's answers. 200 { reference, proposalId, … }; 400 field errors; 403 not the officer's
   * case; 404 unknown decision; 409 CASE_CHANGED, CASE_ACTION_NOT_ALLOWED, CASE_RULE (proposalPending …).
   */
  router.post(
    '/cases/:applicationNo/proposals/:decision',
    authoriseStaff('console.case.act'),
    async (req, res) => {
      const decision = req.params.decision;
      if (!isDecisionEvent(decision)) throw new NotFoundError('case.unknownAction');
      const body = consoleActionBodySchema.parse(req.body);
      const result = await refusalAudited(req, res, 'proposal.propose', () =>
        proposals.propose(currentStaff(res), caseNo(req), decision, body, contextOf(req)),
      );
      sendOk(req, res, result);
    },
  );

  /**
   * POST …/proposals/:id/approve  body {}: the senior officer's approval, which makes the decision (the
   * letter, the history row, the notice). 200 ConsoleActionResult; 403 not a senior officer, or the
   * proposer (`selfApproval`); 404 not this case's; 409 PROPOSAL_DECIDED naming who decided.
   */
  router.post(
    '/cases/:applicationNo/proposals/:id/approve',
    authoriseStaff('console.case.approve'),
    async (req, res) => {
      const id = idParam.parse(req.params.id);
      emptyBody.parse(req.body ?? {});
      const result = await refusalAudited(req, res, 'proposal.approve', () =>
        proposals.approve(currentStaff(res), caseNo(req), id, contextOf(req)),
      );
      sendOk(req, res, result);
    },
  );

  /** POST …/proposals/:id/send-back  body { note }: back to the proposer with the note. 200 { id, state }. */
  router.post(
    '/cases/:applicationNo/proposals/:id/send-back',
    authoriseStaff('console.case.approve'),
    async (req, res) => {
      const id = idParam.parse(req.params.id);
      const { note } = proposalNoteSchema.parse(req.body);
      const result = await refusalAudited(req, res, 'proposal.sendBack', () =>
        proposals.sendBack(currentStaff(res), caseNo(req), id, note, contextOf(req)),
      );
      sendOk(req, res, result);
    },
  );

  /** POST …/proposals/:id/withdraw  body {}: the proposer takes it back. 200 { id, state }; 403 not theirs. */
  router.post(
    '/cases/:applicationNo/proposals/:id/withdraw',
    authoriseStaff('console.case.act'),
    async (req, res) => {
      const id = idParam.parse(req.params.id);
      emptyBody.parse(req.body ?? {});
      const result = await refusalAudited(req, res, 'proposal.withdraw', () =>
        proposals.withdraw(currentStaff(res), caseNo(req), id, contextOf(req)),
      );
      sendOk(req, res, result);
    },
  );

  /**
   * POST /api/staff/cases/:applicationNo/notes  body { body }: an internal note, never shown to the
   * applicant or the AP. 200 InternalNoteData; 400 field errors; 404 unknown case.
   */
  router.post('/cases/:applicationNo/notes', authoriseStaff('console.case.note'), async (req, res) => {
    const { body } = internalNoteSchema.parse(req.body);
    const note = await audited(
      req,
      'case.note.add',
      () => notes.add(currentStaff(res), caseNo(req), body),
      (n) => ({ caseNo: caseNo(req), detail: { noteId: n.id } }),
      { caseNo: caseNo(req) },
    );
    sendOk(req, res, note);
  });

  return router;
}
