/**
 * Problems panel for run specs, prompt files and datasets. Two layers per file, merged when
 * published:
 * - spec: `validateRunSpecText` on the editor's text, on every open and change (no disk access,
 *   so it keeps up with typing);
 * - inputs: `loadRunInputs` on open and save of a prompt or its sidecar — missing dataset, items
 *   lacking a template variable, split advice — published on whichever file each problem is in.
 * An edit clears the inputs layer of the edited file at once (its ranges no longer hold); the next
 * save recomputes it. A third layer, EVOLVE-BLOCK markers of code-search programs, is
 * markerDiagnostics.ts's.
 */
import { DiagnosticSeverity } from 'vscode-languageserver/node';
import type { Connection, Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { Diagnostic } from '../core/data/diagnostics';
import { diagnosticsOf } from '../core/data/diagnostics';
import { isPromptPath, mayHoldRunSpec } from '../core/files/fileKinds';
import type { Files } from '../core/ports';
import { findPromptForSidecar, isSidecarPath, loadRunInputs, sidecarPathFor, validateRunSpecText } from '../core/setup/spec';
import { readSpecText } from '../core/setup/specSource';
import type { OpenDocuments } from './documents';
import { MarkerDiagnostics } from './markerDiagnostics';
import { pathToUri } from './uris';

interface InputCheck {
  /** Problems by the file they are in. */
  byFile: Map<string, Diagnostic[]>;
  /** Files whose save should re-run this check (dataset, sidecar, files named by problems). */
  watched: Set<string>;
}

export class DiagnosticsPublisher {
  private readonly spec = new Map<string, Diagnostic[]>();
  private readonly inputs = new Map<string, InputCheck>();
  private readonly markers: MarkerDiagnostics;

  constructor(
    private readonly connection: Connection,
    private readonly files: Files,
    private readonly docs: OpenDocuments,
  ) {
    this.markers = new MarkerDiagnostics(files);
  }

  /** On open and on every change: the spec layer from the editor's text; stale input problems in this file go. */
  textChanged(path: string, text: string, edited: boolean): void {
    if (edited) for (const check of this.inputs.values()) check.byFile.delete(path);
    if (mayHoldRunSpec(path)) this.spec.set(path, validateRunSpecText(path, text));
    this.markers.textChanged(path, text);
    this.publish(path);
  }

  /** The editor closed the file: its spec layer described a buffer that is gone. */
  closed(path: string): void {
    const hadMarkers = this.markers.closed(path);
    if (this.spec.delete(path) || hadMarkers) this.publish(path);
  }

  /** On open and save: re-check the run inputs this file takes part in. */
  async saved(path: string, text: string): Promise<void> {
    const program = await this.markers.saved(path);
    const programText = program === undefined ? undefined : program === path ? text : this.docs.byPath(program)?.getText();
    if (program !== undefined && programText !== undefined && this.markers.textChanged(program, programText)) this.publish(program);
    const prompts = new Set<string>();
    if (isSidecarPath(path)) {
      const prompt = await findPromptForSidecar(this.files, path);
      if (prompt) prompts.add(prompt);
    } else if (isPromptPath(path) && (await this.hasSpec(path, text))) {
      prompts.add(path);
    }
    for (const [prompt, check] of this.inputs) if (check.watched.has(path)) prompts.add(prompt);
    for (const prompt of prompts) await this.checkInputs(prompt);
  }

  private async hasSpec(path: string, text: string): Promise<boolean> {
    return readSpecText(path, text).spec !== undefined || (await this.files.exists(sidecarPathFor(path)));
  }

  private async checkInputs(promptPath: string): Promise<void> {
    const before = this.inputs.get(promptPath);
    let found: Diagnostic[];
    const watched = new Set<string>([promptPath, sidecarPathFor(promptPath)]);
    try {
      const inputs = await loadRunInputs(this.files, promptPath);
      found = inputs.warnings;
      const split = inputs.spec.split;
      for (const p of [inputs.spec.dataset, ...(split.kind === 'files' ? [split.dev, split.test, split.feedback] : [])]) if (p) watched.add(p);
    } catch (err) {
      found = diagnosticsOf(err, { file: promptPath, line: 1, column: 1, endLine: 1, endColumn: 1 });
    }
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of found) {
      byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
      watched.add(d.file);
    }
    this.inputs.set(promptPath, { byFile, watched });
    for (const file of new Set([...byFile.keys(), ...(before?.byFile.keys() ?? []), promptPath])) this.publish(file);
  }

  private publish(path: string): void {
    const all = [...(this.spec.get(path) ?? []), ...this.markers.get(path)];
    for (const check of this.inputs.values()) for (const x of check.byFile.get(path) ?? []) all.push(x);
    // The same schema error can come from both layers; show it once.
    const seen = new Set<string>();
    const unique = all.filter((d) => {
      const k = `${d.line}:${d.column}:${d.message}`;
      return seen.has(k) ? false : (seen.add(k), true);
    });
    const uri = this.docs.byPath(path)?.uri ?? pathToUri(path);
    void this.connection.sendDiagnostics({ uri, diagnostics: unique.map(toLsp) });
  }
}

/** 1-based line/column (end column just past the span) → a zero-based LSP range. */
export function toLsp(d: Diagnostic): LspDiagnostic {
  const start = { line: Math.max(0, d.line - 1), character: Math.max(0, d.column - 1) };
  const end = { line: Math.max(0, d.endLine - 1), character: Math.max(0, d.endColumn - 1) };
  return {
    range: { start, end: end.line < start.line || (end.line === start.line && end.character < start.character) ? start : end },
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: 'ratchet',
    message: d.message,
    ...(d.field === undefined ? {} : { code: d.field }),
  };
}
