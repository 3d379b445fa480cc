// clamscan ships no types; this is the part of its API the portal uses (node_modules/clamscan/API.md).
declare module 'clamscan' {
  import type { Readable } from 'node:stream';

  interface ClamdOptions {
    host?: string;
    port?: number;
    socket?: string | false;
    timeout?: number;
    localFallback?: boolean;
    active?: boolean;
  }
  interface InitOptions {
    removeInfected?: boolean;
    debugMode?: boolean;
    preference?: 'clamdscan' | 'clamscan';
    clamscan?: { active?: boolean };
    clamdscan?: ClamdOptions;
  }
  interface ScanResult {
    isInfected: boolean | null;
    viruses: string[];
  }
  class NodeClam {
    init(options?: InitOptions): Promise<NodeClam>;
    scanStream(stream: Readable): Promise<ScanResult>;
    getVersion(): Promise<string>;
  }
  export default NodeClam;
}
