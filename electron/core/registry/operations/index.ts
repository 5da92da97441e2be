// The registry operator's operations: everything staff do that the HTTP interface has no endpoint
// for, one module per domain. Code inside the registry (the seed, the warehouse) and the operator
// CLI import the domain they need; this index gathers them for the tests and benchmarks.
export * from './organizations';
export * from './projects';
export * from './issuance';
export * from './transfers';
export * from './retirements';
export * from './apps';
export * from './operators';
