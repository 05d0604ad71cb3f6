/**
 * Code lenses: Evolve / Evaluate / Configure on prompt files, their sidecar specs and code files
 * with EVOLVE-BLOCK markers; Accept / Reject / Diff / Evidence over a pending suggestion. Lenses
 * only name commands (`RatchetCommands`); the client runs them by calling the server's requests.
 */
import type { CodeLens } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { codeMarker, isClaimedByName, isPromptPath } from '../core/files/fileKinds';
import type { Files } from '../core/ports';
import { findPromptForSidecar, isSidecarPath, sidecarPathFor } from '../core/run/spec';
import { readSpecText } from '../core/run/specSource';
import { RatchetCommands } from '../protocol/lsp';
import type { FileCommandArgs, SuggestionCommandArgs, SuggestionState } from '../protocol/lsp';


/** The models line of a prompt file (server/modelLine.ts): the Evolve lens's tooltip. */
export type ModelLine = (promptPath: string) => Promise<string | undefined>;

export async function codeLenses(doc: TextDocument, path: string, files: Files, pending: readonly SuggestionState[], models: ModelLine): Promise<CodeLens[]> {
  const lenses: CodeLens[] = pending.flatMap(suggestionLenses);
  const text = doc.getText();
  const fileArgs: FileCommandArgs = [doc.uri];
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const run = (at = top, tooltip?: string) => [
    lens(at, '$(play) Evolve', RatchetCommands.evolve, fileArgs, tooltip),
    lens(at, 'Evaluate', RatchetCommands.evaluate, fileArgs, tooltip),
  ];
  const promptRun = async (promptPath: string | undefined) => {
    const line = promptPath === undefined ? undefined : await models(promptPath);
    return run(top, line === undefined ? undefined : `Models: ${line}`);
  };

  if (isSidecarPath(path)) return [...lenses, ...(await promptRun(await findPromptForSidecar(files, path)))];
  const configured = readSpecText(path, text).spec !== undefined || (await files.exists(sidecarPathFor(path)));
  if (isPromptPath(path) && (isClaimedByName(path) || configured)) {
    return [...lenses, ...(configured ? await promptRun(path) : [lens(top, '$(gear) Configure Ratchet', RatchetCommands.configure, fileArgs)])];
  }
  // A plain .md that no spec names may still be code with markers.
  const marker = codeMarker(text);
  if (marker) {
    const line = doc.positionAt(marker.index).line;
    const at = { start: { line, character: 0 }, end: { line, character: 0 } };
    return [...lenses, ...(configured ? run(at) : [lens(at, '$(gear) Configure Ratchet', RatchetCommands.configure, fileArgs)])];
  }
  return lenses;
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

function lens(range: CodeLens['range'], title: string, command: string, args: readonly string[], tooltip?: string): CodeLens {
  return { range, command: { title, command, arguments: [...args], ...(tooltip === undefined ? {} : { tooltip }) } };
}
