/**
 * The lenses on a program with EVOLVE-BLOCK markers, at its first marker line:
 * - set up (a kind: code spec, or ShinkaEvolve's evaluate.py beside it): Start Code Search and
 *   Test Evaluator;
 * - not set up: Configure Code Search, which writes the spec;
 * - markers that do not pair up: a pointer to the Problems panel, since no search can start;
 * - an untrusted workspace: why nothing can run (the evaluator is workspace code) and the way to
 *   Manage Workspace Trust, instead of a Start that would only be refused.
 * A `kind: code` sidecar gets the same Start and Test lenses, for its program.
 */
import type { CodeLens } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkMarkers } from '../core/code/markerProblems';
import { errorsOf } from '../core/data/diagnostics';
import { RUN_SPEC_EXTENSIONS, codeMarker } from '../core/files/fileKinds';
import { readSpecText } from '../core/setup/specSource';
import type { Files } from '../core/ports';
import { RatchetCommands } from '../protocol/lsp';
import { wireLens as lens } from '../protocol/suggestionLenses';
import { codeSetup, isSearchReady } from './codeProgram';
import { pathToUri } from './uris';

/** VS Code's own commands a lens may name besides Ratchet's. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';
export const SHOW_PROBLEMS_COMMAND = 'workbench.actions.view.problems';

const TRUST_TITLE = "$(shield) Code search runs this workspace's evaluator: trust the workspace to start one — Manage Workspace Trust";

/** Empty when the text has no marker (not a program for code search). */
export async function codeSearchLenses(doc: TextDocument, path: string, files: Files, trusted: boolean): Promise<CodeLens[]> {
  const text = doc.getText();
  const marker = codeMarker(text);
  if (!marker) return [];
  const line = doc.positionAt(marker.index).line;
  const at = { start: { line, character: 0 }, end: { line, character: 0 } };
  const args = [doc.uri];
  if (!trusted) return [lens(at, TRUST_TITLE, MANAGE_TRUST_COMMAND, [])];
  const setup = await codeSetup(files, path);
  const problems = errorsOf(checkMarkers(path, text, setup.codeSpec).diagnostics);
  if (problems.length > 0) return [lens(at, `$(warning) Fix the EVOLVE-BLOCK markers before a search (line ${problems[0]!.line})`, SHOW_PROBLEMS_COMMAND, [])];
  if (!isSearchReady(setup)) return [lens(at, '$(gear) Configure Code Search', RatchetCommands.configureCodeSearch, args)];
  return [lens(at, '$(play) Start Code Search', RatchetCommands.startCodeSearch, args), lens(at, '$(beaker) Test Evaluator', RatchetCommands.testEvaluator, args)];
}

/** The lenses of a run spec that says kind: code, naming its program; undefined for any other spec. */
export function codeSpecLenses(specPath: string, text: string, trusted: boolean): CodeLens[] | undefined {
  if (readSpecText(specPath, text).spec?.value.kind !== 'code') return undefined;
  const ext = RUN_SPEC_EXTENSIONS.find((e) => specPath.toLowerCase().endsWith(e))!;
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (!trusted) return [lens(at, TRUST_TITLE, MANAGE_TRUST_COMMAND, [])];
  const args = [pathToUri(specPath.slice(0, -ext.length))];
  return [lens(at, '$(play) Start Code Search', RatchetCommands.startCodeSearch, args), lens(at, '$(beaker) Test Evaluator', RatchetCommands.testEvaluator, args)];
}
