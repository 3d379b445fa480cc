/** The appointments module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { createAppointeeAuth } from './appointee-auth';
export { createAppointmentSigning } from './appointment-signing';
export { createHolderContact } from './holder-contact';
export { appointeeRouters, caseAppointmentsRouter, invitationRouter } from './appointments.routes';
export { activeAppointees } from './appointment-view';
export { createAppointmentService, type AppointmentService } from './appointments.service';
export { createHolderReset, type HolderReset } from './holder-reset';
