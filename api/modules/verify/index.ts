/** The public check of issued letters: the module's public face (docs/architecture.md, "Modules"). */
export { verifyRouter } from './verify.routes';
export { createVerifyService, type VerifyService } from './verify.service';
