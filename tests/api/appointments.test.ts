import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointments, applicationHistory, auditEvents } from '../../drizzle/schema';
import { APPOINTMENT_EXPIRY_JOB } from '../../api/jobs/appointments';
import { addDays } from '../../machines/rules/working-days';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

let h: AppointmentHarness;

beforeAll(async () => {
  h = await startAppointmentHarness();
});

afterAll(async () => {
  await h?.close();
});

const historyTypes = async (applicationId: number) =>
  (
    await h.database.db
      .select()
      .from(applicationHistory)
      .where(eq(applicationHistory.applicationId, applicationId))
  )
    .map((r) => `${r.documentType}:${r.submittedBy}`)
    .sort();
const auditOf = async (applicationId: number) =>
  (await h.database.db.select().from(auditEvents).where(eq(auditEvents.applicationId, applicationId))).map(
    (r) => r.event,
  );

describe('the appointment form', () => {
  it('refuses a number of the wrong register, a past expiry date and a bad email, in the caller language', async () => {
    const c = await h.applicantCase();
    const res = await h.act(
      c.token,
      'appointment',
      h.appointeeAnswers('ap', {
        registrationNumber: 'RSE 12',
        expiryDate: '2020-01-01',
        email: 'not-an-email',
      }),
    );
    expect(res.status).toBe(400);
    const fields = JSON.stringify(res.body.data);
    expect(fields).toContain('registrationNumber');
    expect(fields).toContain('email');
  });

  it('invites by email and SMS in the applicant language and in English; the link is single use and bound', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap', { registrationNumber: 'ap(a)-0077' });
    const res = await h.act(c.token, 'appointment', answers);
    expect(res.status).toBe(200);
    expect(res.body.data.reference).toMatch(/^APT-/);

    const token = await h.invitationTo(answers.email!);
    const mail = h.smtp.mails.find((m) => m.to.includes(answers.email!))!;
    expect(mail.text).toContain('has appointed you as Authorized Person');
    expect(h.sms.some((s) => s.to.endsWith(answers.mobile!) && s.text.includes('/appointment-accept#'))).toBe(
      true,
    );

    const view = await h.invitation(token);
    expect(view.status).toBe(200);
    expect(view.body.data.appointment).toMatchObject({ status: 'INVITED', registrationNumber: 'AP(A) 0077' });
    expect(view.body.data.appointment.email).toMatch(/^a\*\*\*@/);
    expect(view.body.data.confirmed).toBe(false);

    // Tampered and unknown tokens get the same answer as a malformed one.
    const tampered = await h.invitation(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    const malformed = await h.invitation('nope');
    expect(tampered.status).toBe(404);
    expect(malformed.body).toEqual(tampered.body);
    expect(tampered.body.meta.code).toBe('INVITATION_UNKNOWN');

    // Signing needs a confirmed contact first.
    const early = await h.call('POST', '/api/appointments/invitation/signing/iamsmart', {
      body: { token, hkic: 'A123456(3)' },
    });
    expect(early.status).toBe(409);
    expect((await h.confirm(token, answers.email!)).status).toBe(200);
    const signed = await h.signIamSmart(token);
    const accepted = await h.accept(token, signed);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.status).toBe('ACTIVE');
    const again = await h.accept(token, signed);
    expect(again.status).toBe(410);
    expect(again.body.meta.code).toBe('INVITATION_USED');

    expect(await historyTypes(c.id)).toEqual(['APPOINTMENT:APPLICANT', 'APPOINTMENT_ACCEPTED:AP']);
    expect(await auditOf(c.id)).toEqual(
      expect.arrayContaining(['appointment.submit', 'appointment.invite', 'appointment.accept']),
    );
  });

  it("refuses an HKIC number whose check digit is wrong (HKICNO, the form's message) in each language, before iAM Smart is asked", async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap');
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    expect((await h.confirm(token, answers.email!)).status).toBe(200);
    const start = (hkic: string, lang?: string) =>
      h.call<{ errors: { path: string; message: string }[] }>(
        'POST',
        `/api/appointments/invitation/signing/iamsmart${lang ? `?lang=${lang}` : ''}`,
        { body: { token, hkic } },
      );

    const messages = {
      en: 'Please input valid Hong Kong Identity Card number.',
      sc: '请输入有效的香港身份证号码。',
      tc: '請輸入有效的香港身份證號碼。',
    };
    for (const [lang, message] of Object.entries(messages)) {
      const refused = await start('A1234567', lang);
      expect(refused.status).toBe(400);
      expect(refused.body.meta).toEqual({ code: 'HKICNO', message });
      expect(refused.body.data.errors).toEqual([{ path: 'hkic', message }]);
    }
    // Brackets, lower case and a two-letter number by the same rule; a 10 only as A.
    for (const wrong of ['A123456(7)', 'a1234567', 'AB9876540', 'A12345', 'A123456(10)'])
      expect((await start(wrong)).body.meta.code, wrong).toBe('HKICNO');
    const empty = await start('  ');
    expect(empty.status).toBe(400);
    expect(empty.body.meta.code).toBe('BAD_REQUEST');

    // The same number corrected is asked of iAM Smart, typed either way.
    expect((await start('A123456(3)')).status).toBe(201);
    expect((await start('a1234563')).status).toBe(201);
  });

  it('shows and signs the declaration in the language it is read in (en, tc, sc), its date as a person reads it', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap', { expiryDate: '2030-06-30' });
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    expect((await h.confirm(token, answers.email!)).status).toBe(200);
    const sha256 = async (text: string) =>
      Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');
    const opening = { en: 'Declaration of appointment ', tc: '委任聲明 ', sc: '委任声明 ' };
    const until = { en: '30 Jun 2030', tc: '2030年6月30日', sc: '2030年6月30日' };
    const digests = new Set<string>();
    for (const lang of ['en', 'tc', 'sc'] as const) {
      const view = await h.call<{ declaration: string }>('POST', '/api/appointments/invitation', {
        body: { token, lang },
      });
      const declaration = view.body.data.declaration;
      expect(declaration.startsWith(opening[lang]), declaration).toBe(true);
      expect(declaration).toContain(until[lang]);
      expect(declaration).not.toContain('2030-06-30');
      // What iAM Smart and the e-Cert are asked to sign is that text's digest, in that language.
      const started = await h.call<{ digest: string }>(
        'POST',
        '/api/appointments/invitation/signing/iamsmart',
        {
          body: { token, hkic: 'A123456(3)', lang },
        },
      );
      expect(started.status).toBe(201);
      const prepared = await h.call<{ digest: string }>(
        'POST',
        '/api/appointments/invitation/signing/ecert/prepare',
        {
          body: { token, lang },
        },
      );
      const expected = await sha256(declaration);
      expect(JSON.stringify(started.body.data)).toContain(expected);
      expect(JSON.stringify(prepared.body.data)).toContain(expected);
      digests.add(expected);
    }
    expect(digests.size).toBe(3);
  });

  it('refuses a declaration signed by someone else (iAM Smart of another holder)', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('rse');
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    await h.confirm(token, answers.email!);
    const reference = await h.signIamSmart(token, 'other-hkic');
    const res = await h.accept(token, reference);
    expect(res.status).toBe(409);
    expect(res.body.meta.code).toBe('SIGNATURE_REQUIRED');
  });

  it('refuses an e-Cert whose holder is not the appointee, naming the appointee', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap', { nameEn: 'LEE SIU MING' });
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    await h.confirm(token, answers.email!);
    const prepared = await h.call<{ requestId: string; digest: string }>(
      'POST',
      '/api/appointments/invitation/signing/ecert/prepare',
      { body: { token } },
    );
    const { signDetached } = await import('../support/test-ca');
    const p7s = await signDetached(new TextEncoder().encode(prepared.body.data.digest), h.pki.signers.valid);
    const form = new FormData();
    form.append('signature', new Blob([new Uint8Array(p7s)]), 'signature.p7s');
    const res = await h.call('POST', '/api/appointments/invitation/signing/ecert', {
      body: form,
      headers: { 'X-Invitation-Token': token, 'X-Signing-Request': prepared.body.data.requestId },
    });
    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('SIGNER_MISMATCH');
    expect(res.body.meta.message).toContain('LEE SIU MING');
  });

  it('lets only one of parallel acceptances through', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap');
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    await h.confirm(token, answers.email!);
    const reference = await h.signIamSmart(token);
    const results = await Promise.all([1, 2, 3, 4].map(() => h.accept(token, reference)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410, 410, 410]);
    const rows = await h.database.db.select().from(appointments).where(eq(appointments.applicationId, c.id));
    expect(rows.filter((r) => r.status === 'ACTIVE')).toHaveLength(1);
  });
});

describe('cancel, revoke and replace', () => {
  it('cancels an invitation: its link answers 410 with a clear message', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap');
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    const [invited] = (await h.list(c.token)).body.data;
    const res = await h.call('POST', `/api/cases/current/appointments/${invited!.id}/cancel`, {
      token: c.token,
    });
    expect(res.status).toBe(200);
    const after = await h.invitation(token);
    expect(after.status).toBe(410);
    expect(after.body.meta.code).toBe('INVITATION_CANCELLED');
    expect(after.body.meta.message).toContain('cancelled');
    expect(
      (await h.call('POST', `/api/cases/current/appointments/${invited!.id}/cancel`, { token: c.token }))
        .status,
    ).toBe(409);
    expect(await historyTypes(c.id)).toContain('APPOINTMENT_CANCELLED:APPLICANT');
  });

  it('replaces the active AP only when the new one accepts', async () => {
    const c = await h.applicantCase();
    const first = await h.appointed(c.token, 'ap');
    const second = h.appointeeAnswers('ap');
    await h.act(c.token, 'appointment', second);
    let list = (await h.list(c.token)).body.data;
    expect(list.find((a) => a.id === first.appointment.id)?.status).toBe('ACTIVE');
    const token = await h.invitationTo(second.email!);
    await h.confirm(token, second.email!);
    expect((await h.accept(token, await h.signIamSmart(token))).status).toBe(200);
    list = (await h.list(c.token)).body.data;
    expect(list.find((a) => a.id === first.appointment.id)?.status).toBe('REPLACED');
    expect(list.filter((a) => a.status === 'ACTIVE')).toHaveLength(1);
  });

  it('revokes with a reason: the AP loses access at the next request (403 with a clear message)', async () => {
    const c = await h.applicantCase();
    const { answers, appointment } = await h.appointed(c.token, 'ap');
    const login = await h.appointeeLogin(answers.registrationNumber!, answers.email!);
    expect(login.status).toBe(200);
    expect(login.body.data.role).toBe('ap');
    expect(login.body.data.applicationNo).toBe(c.applicationNo);
    expect(login.body.data.authRoutes).toContain('/request-for-inspection');
    expect(login.body.data.authRoutes).not.toContain('/withdraw-application');
    const ap = login.body.data.token;
    expect((await h.current(ap)).status).toBe(200);

    const act = await h.act(ap, 'requestForInspection', h.inspectionAnswers({ requesterRole: 'ap' }));
    expect(act.status).toBe(200);
    expect(await historyTypes(c.id)).toContain('INSPECTION_REQUEST:AP');
    expect((await h.act(ap, 'withdrawApplication', { confirm: true })).status).toBe(403);
    expect((await h.act(ap, 'appointment', h.appointeeAnswers('ap'))).status).toBe(403);

    const noReason = await h.call('POST', `/api/cases/current/appointments/${appointment.id}/revoke`, {
      token: c.token,
      body: {},
    });
    expect(noReason.status).toBe(400);
    const revoked = await h.call('POST', `/api/cases/current/appointments/${appointment.id}/revoke`, {
      token: c.token,
      body: { reason: 'We changed architect.' },
    });
    expect(revoked.status).toBe(200);
    const lost = await h.current(ap);
    expect(lost.status).toBe(403);
    expect(lost.body.meta.code).toBe('APPOINTMENT_ENDED');
    expect(lost.body.meta.message).toContain('ended');
    expect(await historyTypes(c.id)).toContain('APPOINTMENT_REVOKED:APPLICANT');
    expect(await auditOf(c.id)).toContain('appointment.revoke');
  });
});

describe('registration expiry (the scheduled job)', () => {
  it('tells both 14 days before, then lapses the appointment and ends access', async () => {
    const c = await h.applicantCase();
    const today = h.workingDays(1)[0]!;
    const expiry = addDays(today, 20);
    const { answers } = await h.appointed(c.token, 'rse', { expiryDate: expiry });
    const login = await h.appointeeLogin(answers.registrationNumber!, answers.email!);
    const rse = login.body.data.token;

    h.clock.advance({ hours: 10 * 24 });
    await h.jobs.runNow(APPOINTMENT_EXPIRY_JOB);
    await h.messages.settled();
    expect(
      h.smtp.mails.some((m) => m.to.includes(answers.email!) && m.subject.includes('Registration expiring')),
    ).toBe(true);
    const [row] = await h.database.db
      .select()
      .from(appointments)
      .where(eq(appointments.registrationNumber, answers.registrationNumber!));
    expect(row?.expiryNoticeAt).not.toBeNull();

    h.clock.advance({ hours: 15 * 24 });
    await h.jobs.runNow(APPOINTMENT_EXPIRY_JOB);
    await h.messages.settled();
    const [lapsed] = await h.database.db.select().from(appointments).where(eq(appointments.id, row!.id));
    expect(lapsed?.status).toBe('LAPSED');
    expect(await historyTypes(c.id)).toContain('APPOINTMENT_LAPSED:BD');
    expect(h.smtp.mails.some((m) => m.to.includes(answers.email!) && m.subject.includes('lapsed'))).toBe(
      true,
    );
    const relogin = await h.call('POST', '/api/auth/keepalive', { token: rse });
    expect([401, 403]).toContain(relogin.status);
  });
});

describe('bad input and limits', () => {
  it('answers malformed requests with a clear 4xx, never a 500', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('ap');
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    const calls: [string, Promise<{ status: number }>, number][] = [
      ['array body', h.call('POST', '/api/appointments/invitation', { body: [] }), 404],
      ['no channel', h.call('POST', '/api/appointments/invitation/otp/send', { body: { token } }), 400],
      [
        'bad code',
        h.call('POST', '/api/appointments/invitation/otp/verify', {
          body: { token, channel: 'email', code: 'x' },
        }),
        400,
      ],
      [
        'bad hkic',
        h.call('POST', '/api/appointments/invitation/signing/iamsmart', { body: { token, hkic: '?' } }),
        400,
      ],
      [
        'bad request id',
        h.call('POST', '/api/appointments/invitation/accept', { body: { token, signingId: 'nope' } }),
        400,
      ],
      [
        'unsigned',
        h.call('POST', '/api/appointments/invitation/accept', { body: { token, signingId: 'a'.repeat(32) } }),
        409,
      ],
      [
        'ecert without file',
        h.call('POST', '/api/appointments/invitation/signing/ecert', {
          headers: { 'X-Invitation-Token': token, 'X-Signing-Request': 'a'.repeat(32) },
        }),
        415,
      ],
      ['bad id', h.call('POST', '/api/cases/current/appointments/abc/cancel', { token: c.token }), 400],
      [
        'unknown id',
        h.call('POST', '/api/cases/current/appointments/999999/cancel', { token: c.token }),
        404,
      ],
      [
        'bad registration',
        h.call('POST', '/api/auth/appointee/otp/send', {
          body: { registrationNumber: 'XYZ', contact: 'a@b.hk' },
        }),
        400,
      ],
      [
        'select without session',
        h.call('POST', '/api/appointee/cases/select', { body: { applicationNo: 'A' } }),
        401,
      ],
    ];
    for (const [name, call, want] of calls) expect([name, (await call).status]).toEqual([name, want]);
  });

  it('asks a minute between two codes for one invitation (429 with Retry-After)', async () => {
    const c = await h.applicantCase();
    const answers = h.appointeeAnswers('rse');
    await h.act(c.token, 'appointment', answers);
    const token = await h.invitationTo(answers.email!);
    const body = { token, channel: 'mobile' };
    expect((await h.call('POST', '/api/appointments/invitation/otp/send', { body })).status).toBe(200);
    const again = await h.call('POST', '/api/appointments/invitation/otp/send', { body });
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBeTruthy();
  });
});
