import { assign, fromPromise, setup } from 'xstate';
import { isCodeValid } from './one-time-code/types';
import { parseContact, type Contact, type OtpSentData } from '../rules/otp';

/**
 * An AP or RSE changes their own registered email or mobile (docs/decisions/025-registration-holders.md
 * "Real contact change"; route `/appointee-contact`, docs/flows/appointee-contact.md), logged in as the
 * holder: they choose which and type the new one, a code goes to the contact on file and one to the new
 * contact (`sendCodes`), they type both (`verifyCodes`), and the holder and the number's open and active
 * appointments take the new contact. Every refusal is kept in `failure` with the field it is about; nothing
 * typed is lost. A lost session (401) ends the flow in `loggedOut`. Pure: the API calls are actors the UI
 * provides.
 */

export type ContactKind = Contact['kind'];
export type CodeField = 'oldCode' | 'newCode';

/** A refusal as the screens show it, at the field it is about. */
export interface ContactChangeFailure {
  kind:
    | 'unchanged'
    | 'wrongCode'
    | 'expired'
    | 'burnt'
    | 'locked'
    | 'rateLimited'
    | 'loggedOut'
    | 'invalid'
    | 'network';
  /** The code the API refused (`wrongCode`, `burnt`); absent when it did not say. */
  field?: CodeField;
  attemptsLeft?: number;
  retryAfterSeconds?: number;
  /** The API's own words (`invalid`). */
  message?: string;
}

export interface ContactChangeResult {
  email: string;
  mobile: string;
}

export interface SendCodesInput {
  contact: string;
}
export interface VerifyCodesInput {
  contact: string;
  oldCode: string;
  newCode: string;
}

interface Context {
  kind: ContactKind;
  contact: string;
  oldCode: string;
  newCode: string;
  /** The contact the live codes were sent to (what a verify names). */
  sentTo: string | null;
  /** Set when a step was asked for with fields not valid: the screen shows their errors. */
  showErrors: boolean;
  failure: ContactChangeFailure | null;
  /** How many codes were sent (the first and each resend): a new send is announced. */
  sends: number;
  result: ContactChangeResult | null;
}

type Events =
  | { type: 'kind.choose'; kind: ContactKind }
  | { type: 'contact.change'; contact: string }
  | { type: 'codes.send' }
  | { type: 'code.change'; field: CodeField; code: string }
  | { type: 'codes.verify' }
  | { type: 'codes.resend' }
  | { type: 'contact.edit' };

/** The new contact as typed is an email (or a Hong Kong mobile) as chosen. */
export const isNewContactValid = (kind: ContactKind, value: string): boolean =>
  parseContact(value.trim())?.kind === kind;

const ROUTE = '/appointee-contact';
const TITLE_KEY = 'appointment:contact.title';
const screen = (name: string) => ({ route: ROUTE, titleKey: TITLE_KEY, screen: name });

const failureOf = (error: unknown): ContactChangeFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as ContactChangeFailure)
    : { kind: 'network' };
const notProvided = () => Promise.reject(Object.assign(new Error('network'), { kind: 'network' }));

export const appointeeContactMachine = setup({
  types: { context: {} as Context, events: {} as Events },
  actors: {
    sendCodes: fromPromise<OtpSentData, SendCodesInput>(notProvided),
    verifyCodes: fromPromise<ContactChangeResult, VerifyCodesInput>(notProvided),
  },
  guards: {
    isContactValid: ({ context }) => isNewContactValid(context.kind, context.contact),
    areCodesComplete: ({ context }) => isCodeValid(context.oldCode) && isCodeValid(context.newCode),
    isLoggedOut: (_, failure: ContactChangeFailure) => failure.kind === 'loggedOut',
  },
  actions: {
    assignFailure: assign((_, failure: ContactChangeFailure) => ({ failure })),
    revealErrors: assign({ showErrors: true }),
    clearFailure: assign({ failure: null, showErrors: false }),
    // New codes replace the ones typed: those can no longer be used.
    assignSent: assign(({ context }) => ({
      sentTo: context.contact.trim(),
      oldCode: '',
      newCode: '',
      sends: context.sends + 1,
      failure: null,
      showErrors: false,
    })),
  },
}).createMachine({
  id: 'appointeeContact',
  context: {
    kind: 'email',
    contact: '',
    oldCode: '',
    newCode: '',
    sentTo: null,
    showErrors: false,
    failure: null,
    sends: 0,
    result: null,
  },
  initial: 'enterContact',
  states: {
    enterContact: {
      meta: screen('enterContact'),
      on: {
        'kind.choose': { actions: assign({ kind: ({ event }) => event.kind }) },
        'contact.change': { actions: assign({ contact: ({ event }) => event.contact }) },
        'codes.send': [
          { guard: 'isContactValid', target: 'sending', actions: 'clearFailure' },
          { actions: 'revealErrors' },
        ],
      },
    },
    sending: {
      meta: { ...screen('sending'), busy: true },
      invoke: {
        id: 'sendCodes',
        src: 'sendCodes',
        input: ({ context }) => ({ contact: context.contact.trim() }),
        onDone: { target: 'enterCodes', actions: 'assignSent' },
        onError: [
          {
            guard: { type: 'isLoggedOut', params: ({ event }) => failureOf(event.error) },
            target: 'loggedOut',
            actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
          },
          {
            target: 'enterContact',
            actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
          },
        ],
      },
    },
    enterCodes: {
      meta: screen('enterCodes'),
      on: {
        'code.change': {
          actions: assign(({ event }) => ({ [event.field]: event.code })),
        },
        'codes.verify': [
          { guard: 'areCodesComplete', target: 'verifying', actions: 'clearFailure' },
          { actions: 'revealErrors' },
        ],
        'codes.resend': { target: 'resending', actions: 'clearFailure' },
        'contact.edit': { target: 'enterContact', actions: 'clearFailure' },
      },
    },
    resending: {
      meta: { ...screen('resending'), busy: true },
      invoke: {
        id: 'sendCodes',
        src: 'sendCodes',
        input: ({ context }) => ({ contact: context.sentTo ?? context.contact.trim() }),
        onDone: { target: 'enterCodes', actions: 'assignSent' },
        onError: [
          {
            guard: { type: 'isLoggedOut', params: ({ event }) => failureOf(event.error) },
            target: 'loggedOut',
            actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
          },
          {
            target: 'enterCodes',
            actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
          },
        ],
      },
    },
    verifying: {
      meta: { ...screen('verifying'), busy: true },
      invoke: {
        id: 'verifyCodes',
        src: 'verifyCodes',
        input: ({ context }) => ({
          contact: context.sentTo ?? context.contact.trim(),
          oldCode: context.oldCode,
          newCode: context.newCode,
        }),
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'isLoggedOut', params: ({ event }) => failureOf(event.error) },
            target: 'loggedOut',
            actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
          },
          {
            target: 'enterCodes',
            actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
          },
        ],
      },
    },
    done: { meta: screen('done'), type: 'final' },
    loggedOut: { meta: screen('loggedOut'), type: 'final' },
  },
});
