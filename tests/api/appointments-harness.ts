import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import type { AppointmentView, InvitationView } from '../../machines/rules/appointment';
import type { LoginData } from '../../machines/rules/otp';
import { addDays } from '../../machines/rules/working-days';
import { codeIn } from '../support/login';
import type { Reply } from './application-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';

/** The case harness with the appointment's calls: appoint, read the invitation, confirm, sign, accept, log in. */
export interface AppointmentHarness extends CaseHarness {
  /** Valid appointment answers for `identity`, with a fresh registration number, email and mobile. */
  appointeeAnswers(identity?: 'ap' | 'rse', overrides?: Record<string, unknown>): Record<string, string>;
  /** The invitation token in the newest mail to `email` (its link's fragment). */
  invitationTo(email: string): Promise<string>;
  invitation(token: string): Promise<Reply<InvitationView>>;
  /** Sends the code to the appointment's email and verifies it. */
  confirm(token: string, email: string): Promise<Reply>;
  /** Signs the declaration by iAM Smart (the sandbox's phone approves, or does `action`): the reference. */
  signIamSmart(token: string, action?: 'approve' | 'other-hkic'): Promise<string>;
  accept(token: string, signingId: string): Promise<Reply<AppointmentView>>;
  /** Invites (as the applicant of `caseToken`), confirms, signs and accepts: the appointee's facts. */
  appointed(
    caseToken: string,
    identity?: 'ap' | 'rse',
    overrides?: Record<string, unknown>,
  ): Promise<{ answers: Record<string, string>; appointment: AppointmentView }>;
  /** The AP/RSE login by registration number and a code to their email. */
  appointeeLogin(registrationNumber: string, email: string): Promise<Reply<LoginData & { cases: unknown[] }>>;
  list(caseToken: string): Promise<Reply<AppointmentView[]>>;
  /** A case in `status` with its applicant logged in. */
  applicantCase(status?: CaseStatus): ReturnType<CaseHarness['loggedInCase']>;
}

let counter = 0;
export const HKIC = 'A123456(3)';

export async function startAppointmentHarness(): Promise<AppointmentHarness> {
  const h = await startCaseHarness();
  const mailTo = async (address: string, pattern: RegExp) => {
    await h.messages.settled();
    const mail = [...h.smtp.mails]
      .reverse()
      .find((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()) && pattern.test(m.text));
    if (!mail) throw new Error(`no mail to ${address} matching ${pattern}`);
    return mail;
  };
  const harness: AppointmentHarness = Object.assign(h, {
    appointeeAnswers(identity: 'ap' | 'rse' = 'ap', overrides: Record<string, unknown> = {}) {
      counter += 1;
      const n = `${process.pid % 100}${counter}`.slice(-5);
      return {
        identity,
        nameEn: 'CHAN TAI MAN',
        nameZh: '陳大文',
        registrationNumber: identity === 'ap' ? `AP(A) ${n}` : `RSE ${n}`,
        expiryDate: addDays(h.workingDays(1)[0]!, 365),
        email: `appointee-${process.pid}-${counter}@example.com`,
        mobile: `9${String(1_000_000 + counter).slice(-7)}`,
        ...overrides,
      };
    },
    async invitationTo(email: string) {
      const mail = await mailTo(email, /appointment-accept#/);
      const match = /appointment-accept#([A-Za-z0-9_-]{43})/.exec(mail.text);
      if (!match?.[1]) throw new Error('no invitation link');
      return match[1];
    },
    invitation: (token: string) =>
      h.call<InvitationView>('POST', '/api/appointments/invitation', { body: { token } }),
    async confirm(token: string, email: string) {
      const sent = await h.call('POST', '/api/appointments/invitation/otp/send', {
        body: { token, channel: 'email' },
      });
      if (sent.status !== 200) return sent;
      const mail = await mailTo(email, /one-time password/i);
      return h.call('POST', '/api/appointments/invitation/otp/verify', {
        body: { token, channel: 'email', code: codeIn(mail.text) },
      });
    },
    async signIamSmart(token: string, action: 'approve' | 'other-hkic' = 'approve') {
      const started = await h.call<{ requestId: string; digest: string }>(
        'POST',
        '/api/appointments/invitation/signing/iamsmart',
        { body: { token, hkic: HKIC } },
      );
      if (started.status !== 201)
        throw new Error(`iamsmart answered ${started.status}: ${JSON.stringify(started.body)}`);
      await h.phone(started.body.data.digest, action);
      await h.call('POST', '/api/appointments/invitation/signing/iamsmart/status', {
        body: { token, requestId: started.body.data.requestId },
      });
      return started.body.data.requestId;
    },
    accept: (token: string, signingId: string) =>
      h.call<AppointmentView>('POST', '/api/appointments/invitation/accept', { body: { token, signingId } }),
    async appointed(
      caseToken: string,
      identity: 'ap' | 'rse' = 'ap',
      overrides: Record<string, unknown> = {},
    ) {
      const answers = harness.appointeeAnswers(identity, overrides);
      const made = await h.act(caseToken, 'appointment', answers);
      if (made.status !== 200)
        throw new Error(`appointment answered ${made.status}: ${JSON.stringify(made.body)}`);
      const token = await harness.invitationTo(answers.email!);
      const confirmed = await harness.confirm(token, answers.email!);
      if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
      const accepted = await harness.accept(token, await harness.signIamSmart(token));
      if (accepted.status !== 200)
        throw new Error(`accept answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
      return { answers, appointment: accepted.body.data };
    },
    async appointeeLogin(registrationNumber: string, email: string) {
      const sent = await h.call('POST', '/api/auth/appointee/otp/send', {
        body: { registrationNumber, contact: email },
      });
      if (sent.status !== 200) throw new Error(`appointee send answered ${sent.status}`);
      const mail = await mailTo(email, /log in/i);
      return h.call<LoginData & { cases: unknown[] }>('POST', '/api/auth/appointee/otp/verify', {
        body: { registrationNumber, contact: email, code: codeIn(mail.text) },
      });
    },
    list: (caseToken: string) =>
      h.call<AppointmentView[]>('GET', '/api/cases/current/appointments', { token: caseToken }),
    applicantCase: (status: CaseStatus = 'LOR_ISSUED') => h.loggedInCase(status),
  });
  return harness;
}
