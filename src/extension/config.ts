/**
 * The one typed reader of `ratchet.*` settings over VS Code's configuration. The table of keys,
 * types, defaults and restart needs is settings.ts; this class only reads it and reports changes.
 */
import * as vscode from 'vscode';
import { SECTION, SETTING_KEYS, keysNeedingRestart, readSettings } from './settings';
import type { RatchetSettings, SettingKey } from './settings';

export interface ConfigChange {
  keys: SettingKey[];
  /** Some changed key only takes effect in a new server process. */
  restart: boolean;
}

export class Config {
  get settings(): RatchetSettings {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    return readSettings({
      value: (key) => cfg.get(key),
      isSet: (key) => {
        const i = cfg.inspect(key);
        return i !== undefined && [i.globalValue, i.workspaceValue, i.workspaceFolderValue].some((v) => v !== undefined);
      },
    });
  }

  onDidChange(listener: (change: ConfigChange) => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      const keys = SETTING_KEYS.filter((key) => e.affectsConfiguration(`${SECTION}.${key}`));
      if (keys.length > 0) listener({ keys, restart: keysNeedingRestart(keys).length > 0 });
    });
  }

  /** User-level writes (the model picker): a choice of model follows the user, not the folder. */
  async setGlobal(key: SettingKey, value: string | number | undefined): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
  }
}
