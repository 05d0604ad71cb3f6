/**
 * The blame hover: on a line of a prompt file (or a code search's program) that came from an accepted edit, which run and
 * candidate it came from, the evidence, who accepted it and when, and a link to its Evidence.
 */
import * as vscode from 'vscode';
import { commandId } from '../commandTable';
import { readProvenanceLog } from './provenanceLogs';

export class ProvenanceHover implements vscode.HoverProvider {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const { records } = await readProvenanceLog(document.uri, this.log);
    if (records.length === 0) return undefined;
    // Imported on the first hover over a file with accepted edits (out/provenance.js): activation does not load it.
    const { hoverMarkdownAt } = await import('./hoverAt');
    const markdown = hoverMarkdownAt(records, document.getText(), position.line, document.uri.toString(), Date.now());
    if (markdown === undefined) return undefined;
    const md = new vscode.MarkdownString(markdown);
    // Only the Evidence link runs: the record's text came from a file, not from this extension.
    md.isTrusted = { enabledCommands: [commandId('showEvidence')] };
    return new vscode.Hover(md, document.lineAt(position.line).range);
  }
}
