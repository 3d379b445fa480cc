/**
 * The database schema, as drizzle-kit reads it (drizzle.config.ts) and the code imports it: each file
 * defines the tables of one part and imports the tables it references from the file that defines them.
 */
export * from './schema-core';
export * from './schema-otp';
export * from './schema-drafts';
export * from './schema-appointments';
export * from './schema-selfcert';
export * from './schema-case-versions';
export * from './schema-staff';
export * from './schema-case-uploads';
export * from './schema-case-signings';
export * from './schema-document-reviews';
export * from './schema-inbox';
export * from './schema-proposals';
