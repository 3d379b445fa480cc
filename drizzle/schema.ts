import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Reference values the portal reads at run time, looked up by (type, code).
 * Example: type `admin_setting`, code `logout_idletime_frontend`, dataValue `30` (idle minutes).
 * A (type, code) pair may hold several values, ordered by sortOrder.
 */
export const masterData = pgTable(
  'master_data',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    code: text('code').notNull(),
    dataValue: text('data_value').notNull(),
    description: text('description'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [
    // Also serves lookups by (type, code): they are the index's leading columns.
    uniqueIndex('master_data_type_code_value_uq').on(table.type, table.code, table.dataValue),
  ],
);

export type MasterDataRow = typeof masterData.$inferSelect;
export type NewMasterDataRow = typeof masterData.$inferInsert;
