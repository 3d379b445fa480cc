/**
 * Applications of the browser tests' own database, one per test that logs in, so that the real
 * one-time code limits (one send a minute, five an hour per application) never couple two tests.
 */
export interface TestApplicant {
  applicationNo: string;
  email: string;
  mobile: string;
}

export function testApplicant(n: number): TestApplicant {
  const id = String(n).padStart(4, '0');
  return {
    applicationNo: `E2E-2026-${id}`,
    email: `e2e-${id}@example.hk`,
    mobile: `6${String(9000000 + n)}`,
  };
}

export const TEST_APPLICANT_COUNT = 40;

/**
 * Applicants whose case is in a given status (as the department's side would leave it), for the follow-up
 * flows: one per test, numbered after the plain ones.
 */
export const CASE_APPLICANTS = {
  withdrawEn: { n: 41, status: 'SUBMITTED' },
  withdrawSc: { n: 42, status: 'ACKNOWLEDGED' },
  withdrawTc: { n: 43, status: 'UNDER_EXAMINATION' },
  inspectEn: { n: 44, status: 'LOR_ISSUED' },
  inspectSc: { n: 45, status: 'COMPLIANCE_REPORTED' },
  inspectTc: { n: 46, status: 'LOR_ISSUED' },
  withdrawn: { n: 47, status: 'WITHDRAWN' },
  notYetInspectable: { n: 48, status: 'SUBMITTED' },
} as const;
