import express, { Router } from 'express';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type IamSmartSandbox, type IamSmartSigning, PHONE_ACTIONS } from '../../adapters/iamsmart';
import { NotFoundError } from '../../http/errors';
import { sendOk } from '../../http/envelope';
import type { Db } from '../../../drizzle/db';
import { verifyAuditChain } from './audit-chain';
import type { MessageService } from './messages';

export const OUTBOX_PAGE_SIZE = 50;

/** Development helpers, mounted only when DEV_TOOLS=1 outside production (otherwise their paths are 404). */
const isSandbox = (adapter: IamSmartSigning | undefined): adapter is IamSmartSandbox =>
  adapter !== undefined && 'phone' in adapter;
const phoneActionSchema = z.object({ action: z.enum(PHONE_ACTIONS as [string, ...string[]]) });

export function devRouter({
  db,
  messages,
  iamSmart,
}: {
  db: Db;
  messages: MessageService;
  iamSmart?: IamSmartSigning;
}): Router {
  const router = Router();

  /**
   * GET /api/dev/outbox
   * 200 data [{ id, channel, to, subject, body, createdAt, transport }], the newest 50 messages first.
   */
  router.get('/outbox', async (req, res) => {
    sendOk(req, res, await messages.latest(OUTBOX_PAGE_SIZE));
  });

  /**
   * GET /api/dev/iamsmart  200 data [{ txId, identificationCode, hash, language, qrText, expiresAt }]: the
   * iAM Smart sandbox's requests waiting for the phone (404 when the adapter is not the sandbox).
   * POST /api/dev/iamsmart/:txId  body { action: 'approve' | 'decline' | 'no-signing-function' | 'other-hkic' }
   * 200 data { code }: the phone's answer; 404 when the request is unknown or has ended.
   */
  router.get('/iamsmart', async (req, res) => {
    if (!isSandbox(iamSmart)) throw new NotFoundError();
    sendOk(req, res, await iamSmart.phone.list());
  });
  router.post('/iamsmart/:txId', express.json({ limit: '1kb' }), async (req, res) => {
    if (!isSandbox(iamSmart)) throw new NotFoundError();
    const { action } = phoneActionSchema.parse(req.body);
    const result = await iamSmart.phone.act(
      String(req.params.txId),
      action as (typeof PHONE_ACTIONS)[number],
    );
    if (!result.ok) throw new NotFoundError('signing.notFound');
    sendOk(req, res, { code: result.code });
  });

  /**
   * GET /api/dev/audit-chain  200 data { ok, rows, head | brokenAt, reason, events: { [event]: count } }:
   * `npm run audit:verify` on the running server's database, for a browser run's last check (the
   * in-memory database of `npm test` is reachable from nowhere else; docs/testing.md).
   */
  router.get('/audit-chain', async (req, res) => {
    const verdict = await verifyAuditChain(db);
    const counts = await db.execute<{ event: string; n: string }>(
      sql`select event, count(*)::text as n from audit_events group by event order by event`,
    );
    const rows = (
      Array.isArray(counts) ? counts : (counts as { rows: { event: string; n: string }[] }).rows
    ) as {
      event: string;
      n: string;
    }[];
    sendOk(req, res, { ...verdict, events: Object.fromEntries(rows.map((r) => [r.event, Number(r.n)])) });
  });

  return router;
}
