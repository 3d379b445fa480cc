import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it, decoded enough for tests. */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  headers: Map<string, string>;
  raw: string;
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:<port> */
  url: string;
  mails: CapturedMail[];
  close(): Promise<void>;
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const text = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A single-part text/plain message (what the portal sends): headers, then the decoded body. */
export function parseMail(raw: string, from: string, to: string[]): CapturedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return {
    from,
    to,
    subject: decodeWords(headers.get('subject') ?? ''),
    text: text.replace(/\r\n/g, '\n'),
    headers,
    raw,
  };
}

/**
 * A real SMTP server on 127.0.0.1 (a free port) that keeps every mail it accepts. `failFirst`: the
 * first N messages are refused with a temporary failure (451), as a busy mail server does.
 * `withholdReply`: each mail is kept once its data has arrived, but the reply never leaves, as when the
 * sender dies between the end of its message and the server's 250 (the server delivers it all the same).
 * `replyDelayMs`: each mail is kept once its data has arrived and the 250 leaves this much later, as from a
 * busy server (a sender killed meanwhile has handed the message over without knowing it).
 */
export async function startSmtpCapture(
  options: { failFirst?: number; port?: number; withholdReply?: boolean; replyDelayMs?: number } = {},
): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  let failures = options.failFirst ?? 0;
  const server = new SMTPServer({
    // Connections still open (a withheld reply) are cut this long after close().
    closeTimeout: 200,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((r) => r.address);
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), from, to));
        if (options.withholdReply) return;
        if (options.replyDelayMs) setTimeout(() => callback(), options.replyDelayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
