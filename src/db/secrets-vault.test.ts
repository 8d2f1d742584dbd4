import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import { NotesAgentDatabase as Database } from './database';
import { SecretsVault } from './secrets-vault';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

const SECRET = 'sk-test-秘密-1234567890abcdef';

function containsPlaintext(value: unknown): boolean {
  const bytes = new TextEncoder().encode(SECRET);
  const seen = (data: Uint8Array) => {
    outer: for (let i = 0; i + bytes.length <= data.length; i++) {
      for (let j = 0; j < bytes.length; j++) if (data[i + j] !== bytes[j]) continue outer;
      return true;
    }
    return false;
  };
  if (value instanceof ArrayBuffer) return seen(new Uint8Array(value));
  if (ArrayBuffer.isView(value))
    return seen(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (typeof value === 'string') return value.includes(SECRET);
  if (value && typeof value === 'object') return Object.values(value).some(containsPlaintext);
  return false;
}

describe('SecretsVault', () => {
  it('stores only ciphertext and reads back configured: true without the value', async () => {
    db = freshDatabase();
    const vault = new SecretsVault(db);
    const status = await vault.put('provider.deepseek.api_key', SECRET);
    expect(status).toMatchObject({ name: 'provider.deepseek.api_key', configured: true });
    expect(containsPlaintext(status)).toBe(false);
    const rows = await db.secrets.toArray();
    expect(rows).toHaveLength(1);
    expect(containsPlaintext(rows)).toBe(false);
    expect(containsPlaintext(await vault.list())).toBe(false);
    expect(await vault.status('provider.deepseek.api_key')).toMatchObject({ configured: true });
    expect(await vault.status('provider.openai.api_key')).toEqual({
      name: 'provider.openai.api_key',
      configured: false,
      updated_at: null,
    });
    expect(await vault.reveal('provider.deepseek.api_key')).toBe(SECRET);
  });

  it('keeps a non-extractable key that survives a reload', async () => {
    db = freshDatabase();
    await new SecretsVault(db).put('k', SECRET);
    const key = (await db.vault_keys.toArray())[0]!.key;
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    const reopened = new Database(db.name);
    expect(await new SecretsVault(reopened).reveal('k')).toBe(SECRET);
    reopened.close();
  });

  it('binds ciphertext to its name and reports tampering as SECRET_STORE_ERROR', async () => {
    db = freshDatabase();
    const vault = new SecretsVault(db);
    await vault.put('a', SECRET);
    const row = (await db.secrets.get('a'))!;
    await db.secrets.put({ ...row, name: 'b' });
    await expect(vault.reveal('b')).rejects.toMatchObject({ code: 'SECRET_STORE_ERROR' });
    expect(await vault.delete('a')).toBe(true);
    expect(await vault.delete('a')).toBe(false);
    expect(await vault.reveal('a')).toBeUndefined();
  });
});
