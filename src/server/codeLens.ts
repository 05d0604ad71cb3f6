/**
 * Code lenses: Evolve / Evaluate / Configure on prompt files and their sidecar specs (and Generate
 * Dev Set on a prompt whose spec names no dataset), the code search lenses on files with
 * EVOLVE-BLOCK markers (codeSearchLens.ts); Accept / Reject / Diff / Evidence over a pending
 * suggestion, for any LSP editor (src/protocol/suggestionLenses.ts: Ratchet's VS Code client
 * leaves these out and draws the same commands as links in the change). Lenses only name commands
 * (`RatchetCommands`); the client runs them by calling the server's requests.
 */
import { basename } from 'node:path';
import type { CodeLens } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { evaluatedAs, isClaimedByName, isPromptPath, promptKindOf } from '../core/files/fileKinds';
import type { Files } from '../core/ports';
import { findPromptForSidecar, isSidecarPath, namesNoDataset, sidecarPathFor } from '../core/setup/spec';
import type { RunSpec } from '../core/run/specTypes';
import { readSpecText } from '../core/setup/specSource';
import { RatchetCommands } from '../protocol/lsp';
import type { FileCommandArgs, SuggestionState } from '../protocol/lsp';
import { suggestionLenses, wireLens as lens } from '../protocol/suggestionLenses';
import { codeSearchLenses, codeSpecLenses } from './codeSearchLens';
import { genDataPaths } from '../node/runs/genDataPaths';

/** A prompt's run spec, undefined when it does not load (its diagnostics say why): server/specCache.ts. */
export type SpecOf = (promptPath: string) => Promise<RunSpec | undefined>;

/** The models line of a loaded spec (server/modelLine.ts): the Evolve lens's tooltip. */
export type ModelLine = (spec: RunSpec) => string;

export async function codeLenses(doc: TextDocument, path: string, files: Files, pending: readonly SuggestionState[], specOf: SpecOf, models: ModelLine, trusted: boolean): Promise<CodeLens[]> {
  const lenses = suggestionLenses(pending);
  const text = doc.getText();
  const fileArgs: FileCommandArgs = [doc.uri];
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const run = (at = top, tooltip?: string) => [lens(at, '$(play) Evolve', RatchetCommands.evolve, fileArgs, tooltip), lens(at, 'Evaluate', RatchetCommands.evaluate, fileArgs, tooltip)];
  const generate = (promptPath: string) => lens(top, '$(wand) Generate Dev Set', RatchetCommands.generateDevSet, fileArgs, generateTooltip(promptPath));
  const promptRun = async (promptPath: string | undefined) => {
    const spec = promptPath === undefined ? undefined : await specOf(promptPath);
    const runs = run(top, spec === undefined ? undefined : `Models: ${models(spec)}`);
    // A spec that does not load offers no Generate Dev Set: its diagnostics say what to fix first.
    const generates = promptPath !== undefined && evaluatedAs(promptKindOf(promptPath)) === 'user-message';
    return generates && spec !== undefined && namesNoDataset(spec) ? [...runs, generate(promptPath)] : runs;
  };

  if (isSidecarPath(path)) return [...lenses, ...(codeSpecLenses(path, text, trusted) ?? (await promptRun(await findPromptForSidecar(files, path))))];
  const configured = readSpecText(path, text).spec !== undefined || (await files.exists(sidecarPathFor(path)));
  if (isPromptPath(path) && (isClaimedByName(path) || configured)) {
    // A prompt with no spec has no dataset either: generating one is the other way to start. Not for
    // instructions or a skill: generated tasks fill a prompt's variables, and those are the item's message.
    const generates = evaluatedAs(promptKindOf(path)) === 'user-message';
    return [...lenses, ...(configured ? await promptRun(path) : [lens(top, '$(gear) Configure Ratchet', RatchetCommands.configure, fileArgs), ...(generates ? [generate(path)] : [])])];
  }
  // Anything else with markers is a program for code search (codeSearchLens.ts).
  return [...lenses, ...(await codeSearchLenses(doc, path, files, trusted))];
}

/** What Generate Dev Set does, and the files it writes for the prompt. */
function generateTooltip(promptPath: string): string {
  const { devPath, testPath } = genDataPaths(promptPath, undefined);
  return `No dataset: a challenger model writes tasks for this prompt, the prompt answers each several times, a judge keeps those the answers disagree on. Writes ${basename(devPath)} and a held-out ${basename(testPath)}.`;
}
