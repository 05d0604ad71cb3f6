/**
 * The API key in VS Code's SecretStorage (the OS keychain), never in settings.json. It reaches the
 * server in the settings object only; the output channels scrub it (server/redact.ts).
 */
import type * as vscode from 'vscode';

const API_KEY = 'ratchet.apiKey';

export class ApiKeyStore {
  /** Every key read or stored in this session, for the log scrubber, which cannot wait on the keychain. */
  private readonly seen = new Set<string>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    const key = await this.secrets.get(API_KEY);
    if (key) this.seen.add(key);
    return key;
  }

  async set(key: string): Promise<void> {
    this.seen.add(key);
    await this.secrets.store(API_KEY, key);
  }

  async delete(): Promise<void> {
    await this.secrets.delete(API_KEY);
    // Keep scrubbing the old key: lines already queued may still carry it.
  }

  /** Every key seen in this session, for redaction. */
  known(): string[] {
    return [...this.seen];
  }

  /** Another window (or Settings Sync) changed the key. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === API_KEY) listener();
    });
  }
}
