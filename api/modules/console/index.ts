/** The console module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { staffRouter } from './console.routes';
export { createConsoleService } from './console.service';
export { createProposalService } from './proposals';
export { createInternalNoteService } from './internal-notes';
export { decisionsRouter } from './decisions.routes';
export { createPerformanceReader } from './performance';
