import { AppError, type SecretStatusDto } from '../contracts';
import type { NotesAgentDatabase } from './database';

const KEY_ID = 'secrets-v1';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * API keys and plugin secrets, encrypted with AES-GCM under a non-extractable
 * key that lives only inside IndexedDB: script can use it but never read it,
 * and the stored rows are ciphertext. Reads for the UI say only whether a
 * secret is configured; `reveal` is for the provider layer inside the worker.
 */
export class SecretsVault {
  readonly #db: NotesAgentDatabase;
  readonly #crypto: SubtleCrypto;
  #key: Promise<CryptoKey> | undefined;

  constructor(db: NotesAgentDatabase, subtle: SubtleCrypto = globalThis.crypto.subtle) {
    this.#db = db;
    this.#crypto = subtle;
  }

  async put(name: string, value: string): Promise<SecretStatusDto> {
    const key = await this.#vaultKey();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ciphertext = await this.#crypto.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(name) },
      key,
      encoder.encode(value),
    );
    const updated_at = new Date().toISOString();
    await this.#db.secrets.put({ name, iv, ciphertext, updated_at });
    return { name, configured: true, updated_at };
  }

  async status(name: string): Promise<SecretStatusDto> {
    const row = await this.#db.secrets.get(name);
    return { name, configured: row !== undefined, updated_at: row?.updated_at ?? null };
  }

  async list(): Promise<SecretStatusDto[]> {
    const rows = await this.#db.secrets.toArray();
    return rows.map((row) => ({ name: row.name, configured: true, updated_at: row.updated_at }));
  }

  async delete(name: string): Promise<boolean> {
    const existed = (await this.#db.secrets.get(name)) !== undefined;
    await this.#db.secrets.delete(name);
    return existed;
  }

  /** Plaintext for the code that must send it (a provider call); never for display. */
  async reveal(name: string): Promise<string | undefined> {
    const row = await this.#db.secrets.get(name);
    if (!row) return undefined;
    try {
      const plaintext = await this.#crypto.decrypt(
        { name: 'AES-GCM', iv: row.iv, additionalData: encoder.encode(name) },
        await this.#vaultKey(),
        row.ciphertext,
      );
      return decoder.decode(plaintext);
    } catch (cause) {
      throw new AppError(
        'SECRET_STORE_ERROR',
        'A stored secret could not be decrypted. Enter it again.',
        { name },
        {
          cause,
        },
      );
    }
  }

  #vaultKey(): Promise<CryptoKey> {
    this.#key ??= this.#loadOrCreateKey().catch((error: unknown) => {
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }

  async #loadOrCreateKey(): Promise<CryptoKey> {
    const stored = await this.#db.vault_keys.get(KEY_ID);
    if (stored) return stored.key;
    const key = await this.#crypto.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    // Two tabs may race here; the first key written wins and both use it.
    return this.#db.transaction('rw', this.#db.vault_keys, async () => {
      const winner = await this.#db.vault_keys.get(KEY_ID);
      if (winner) return winner.key;
      await this.#db.vault_keys.add({ id: KEY_ID, key });
      return key;
    });
  }
}
