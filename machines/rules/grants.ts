import { FOLLOW_UP_ENTRY_LIST } from '../forms/follow-up/entries';
import { may, type Role } from './authorisation';
import { transitionOf, type CaseActor } from './case-lifecycle';

/**
 * The authorised routes and buttons of the client session state (spec §3 "Client session state"), per
 * role. They come from the two tables the API enforces — role × action (authorisation.ts) and who may send
 * each lifecycle event (case-lifecycle.ts) — so a follow-up added to the catalogue is granted to whoever
 * its event names, and the screens never grant what the API would refuse. The API answers them with every
 * login and session (`authRoutes`, `authButtons`); hiding a button is never the only check.
 */
export interface Grants {
  authRoutes: string[];
  authButtons: string[];
}

export function grantsOf(role: string): Grants {
  const routes: string[] = [];
  const buttons: string[] = [];
  if (may(role, 'case.view')) {
    routes.push('/case-history');
    buttons.push('case.history');
  }
  if (may(role, 'case.document')) buttons.push('case.download');
  if (may(role, 'case.information')) buttons.push('case.information');
  if (may(role, 'case.act'))
    for (const definition of FOLLOW_UP_ENTRY_LIST) {
      if (!transitionOf(definition.event).by.includes(role as CaseActor)) continue;
      routes.push(definition.route);
      buttons.push(`followUp.${definition.key}`);
    }
  if (may(role, 'appointment.manage')) {
    routes.push('/form-appointment-step2');
    buttons.push('appointment.cancel', 'appointment.revoke');
  }
  if (may(role, 'appointee.cases')) {
    routes.push('/appointee-login', '/appointee-contact');
    buttons.push('appointee.switchCase');
  }
  return { authRoutes: routes, authButtons: buttons };
}

export type { Role };
