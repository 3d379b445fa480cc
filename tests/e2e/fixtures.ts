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
