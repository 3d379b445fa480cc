import { Router } from 'express';
import { sendOk } from '../envelope';
import type { MessageService } from '../services/messages';

export const OUTBOX_PAGE_SIZE = 50;

/** Development helpers, mounted only when NODE_ENV is not 'production' (otherwise their paths are 404). */
export function devRouter({ messages }: { messages: MessageService }): Router {
  const router = Router();

  /**
   * GET /api/dev/outbox
   * 200 data [{ id, channel, to, subject, body, createdAt, transport }], the newest 50 messages first.
   */
  router.get('/outbox', async (req, res) => {
    sendOk(req, res, await messages.latest(OUTBOX_PAGE_SIZE));
  });

  return router;
}
