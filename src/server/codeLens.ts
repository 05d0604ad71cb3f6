/**
 * Code lenses: Evolve / Evaluate / Configure on prompt files and their sidecar specs, the code
 * search lenses on files with EVOLVE-BLOCK markers (codeSearchLens.ts); Accept / Reject / Diff / Evidence over a pending suggestion. Lenses
 * only name commands (`RatchetCommands`); the client runs them by calling the server's requests.
 */
import type { CodeLens } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isClaimedByName, isPromptPath } from '../core/files/fileKinds';
import type { Files } from '../core/ports';
import { isSidecarPath, sidecarPathFor } from '../core/run/spec';
import { readSpecText } from '../core/run/specSource';
import { RatchetCommands } from '../protocol/lsp';
import type { FileCommandArgs, SuggestionCommandArgs, SuggestionState } from '../protocol/lsp';
import { codeSearchLenses, codeSpecLenses } from './codeSearchLens';


export async function codeLenses(doc: TextDocument, path: string, files: Files, pending: readonly SuggestionState[], trusted: boolean): Promise<CodeLens[]> {
  const lenses: CodeLens[] = pending.flatMap(suggestionLenses);
  const text = doc.getText();
  const fileArgs: FileCommandArgs = [doc.uri];
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const run = (at = top) => [lens(at, '$(play) Evolve', RatchetCommands.evolve, fileArgs), lens(at, 'Evaluate', RatchetCommands.evaluate, fileArgs)];

  if (isSidecarPath(path)) return [...lenses, ...(codeSpecLenses(path, text, trusted) ?? run())];
  const configured = readSpecText(path, text).spec !== undefined || (await files.exists(sidecarPathFor(path)));
  if (isPromptPath(path) && (isClaimedByName(path) || configured)) {
    return [...lenses, ...(configured ? run() : [lens(top, '$(gear) Configure Ratchet', RatchetCommands.configure, fileArgs)])];
  }
  // Anything else with markers is a program for code search (codeSearchLens.ts).
  return [...lenses, ...(await codeSearchLenses(doc, path, files, trusted))];
}

function suggestionLenses(s: SuggestionState): CodeLens[] {
  const args: SuggestionCommandArgs = [s.uri, s.runId, s.candidateId];
  const at = { start: s.range.start, end: s.range.start };
  return [
    lens(at, `$(check) Accept ${s.candidateId}`, RatchetCommands.acceptSuggestion, args),
    lens(at, '$(close) Reject', RatchetCommands.rejectSuggestion, args),
    lens(at, 'Diff', RatchetCommands.showDiff, args),
    lens(at, 'Evidence', RatchetCommands.showEvidence, args),
  ];
}

function lens(range: CodeLens['range'], title: string, command: string, args: readonly string[]): CodeLens {
  return { range, command: { title, command, arguments: [...args] } };
}
