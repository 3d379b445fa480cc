/** The console module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { staffRouter } from './console.routes';
export { createConsoleService } from './console.service';
export { createPerformanceReader } from './performance';
