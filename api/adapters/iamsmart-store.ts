import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import type { SandboxStore, SandboxTransaction } from './iamsmart';

/**
 * The iAM Smart sandbox's state in the portal's Postgres, so that several processes behind a load
 * balancer share it: a signing started through one process is polled, cancelled or approved on the
 * phone page through any other. The tables belong to the sandbox (a stand-in for an outside service
 * that keeps its own state), not to the portal's schema: they are made here on first use, under an
 * advisory lock, and never exist where the sandbox is not used (production).
 */
const LOCK_KEY = 7_310_013_003;

/** Rows of `db.execute()`: an array with postgres.js, `{ rows }` with PGlite. */
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

export function postgresSandboxStore(db: Db): SandboxStore {
  let ready: Promise<void> | undefined;
  let pair: Promise<{ privateKey: KeyObject; publicKey: KeyObject }> | undefined;

  const prepare = () =>
    (ready ??= db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
        await tx.execute(sql`create table if not exists iamsmart_sandbox_transactions (
          tx_id text primary key,
          outcome text not null,
          data jsonb not null,
          created_at timestamptz not null default now())`);
        await tx.execute(sql`create table if not exists iamsmart_sandbox_key (
          id integer primary key,
          private_key text not null)`);
      })
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      }));

  async function loadPair() {
    await prepare();
    const fresh = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = fresh.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // The first process to ask stores its key; every other one reads that one.
    await db.execute(
      sql`insert into iamsmart_sandbox_key (id, private_key) values (1, ${pem}) on conflict (id) do nothing`,
    );
    const [row] = await rows<{ private_key: string }>(
      db,
      sql`select private_key from iamsmart_sandbox_key where id = 1`,
    );
    if (!row) throw new Error('iAM Smart sandbox key missing');
    const privateKey = createPrivateKey(row.private_key);
    return { privateKey, publicKey: createPublicKey(privateKey) };
  }

  return {
    keyPair() {
      pair ??= loadPair().catch((error: unknown) => {
        pair = undefined;
        throw error;
      });
      return pair;
    },
    async insert(tx) {
      await prepare();
      await db.execute(sql`insert into iamsmart_sandbox_transactions (tx_id, outcome, data)
        values (${tx.txId}, ${tx.outcome}, ${JSON.stringify(tx)}::jsonb)`);
    },
    async get(txId) {
      await prepare();
      const [row] = await rows<{ data: SandboxTransaction | string }>(
        db,
        sql`select data from iamsmart_sandbox_transactions where tx_id = ${txId}`,
      );
      return row ? parse(row.data) : undefined;
    },
    async update(txId, change) {
      await prepare();
      return db.transaction(async (tx) => {
        const [row] = await rows<{ data: SandboxTransaction | string }>(
          tx,
          sql`select data from iamsmart_sandbox_transactions where tx_id = ${txId} for update`,
        );
        if (!row) return undefined;
        const current = parse(row.data);
        const next = change({ ...current });
        if (!next) return current;
        await tx.execute(sql`update iamsmart_sandbox_transactions
          set outcome = ${next.outcome}, data = ${JSON.stringify(next)}::jsonb where tx_id = ${txId}`);
        return next;
      });
    },
    async pending() {
      await prepare();
      const found = await rows<{ data: SandboxTransaction | string }>(
        db,
        sql`select data from iamsmart_sandbox_transactions where outcome = 'pending' order by created_at, tx_id`,
      );
      return found.map((row) => parse(row.data));
    },
  };
}

function parse(data: SandboxTransaction | string): SandboxTransaction {
  return typeof data === 'string' ? (JSON.parse(data) as SandboxTransaction) : data;
}
