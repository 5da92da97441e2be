// The registry's public entry: everything the desk may use of the registry, which is what it needs
// to run one embedded in the desk (open it, seed the demo, serve it on loopback, render its
// certificates, keep the desk's local administrator) and the error type its in-process calls throw.
// The desk imports the registry only through this file (.dependency-cruiser.mjs,
// desk-uses-the-registry-through-its-entry); everything else under registry/ is the registry's own.
export { audited } from './audit';
export type { RegistryContext } from './context';
export { RegistryError, STATUS_OF } from './errors';
export { createCertificatePool, type CertificatePoolOptions } from './certificates/pool';
export { startRegistryServer, type RunningRegistryServer } from './http/server';
export { openRegistry, type OpenedRegistry } from './open';
export { createOperator, operatorKeyOf, setOperatorActive, setOperatorKey } from './operations/operators';
export { certificateInputFor } from './retirements/certificate';
export { seedDemo } from './seed';
