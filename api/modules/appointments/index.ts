/** The appointments module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { createAppointeeAuth } from './appointee-auth';
export { createAppointmentSigning } from './appointment-signing';
export { appointeeRouters, caseAppointmentsRouter, invitationRouter } from './appointments.routes';
export { activeAppointees, createAppointmentService, type AppointmentService } from './appointments.service';
