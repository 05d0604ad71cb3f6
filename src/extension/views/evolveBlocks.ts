/**
 * What a program with EVOLVE-BLOCK markers looks like in the editor: the blocks a code search may
 * rewrite shaded (whole lines, a themable background), the frozen code around them marked by a thin
 * left border, both redrawn as the user types; and the context key that shows Start Code Search in
 * the title bar and the palette while such a file is the active editor. Marker errors draw nothing
 * here — they are Problems (the language server's) — so a half-typed marker never flickers a shade.
 */
import * as vscode from 'vscode';
import { parseBlocks } from '../../core/code/blocks';
import type { Blocks } from '../../core/code/blocks';
import { fileKind } from '../../core/files/fileKinds';
import { CONTEXT_KEYS } from '../menuTable';
import { EVOLVE_BLOCK_COLORS, blockLines } from './blockLines';

/** The blocks of a document that is a code-search program, else undefined (no markers, or markers that do not pair up). */
function blocksOf(doc: vscode.TextDocument): Blocks | undefined {
  const text = doc.getText();
  if (fileKind(doc.uri.path, text) !== 'code') return undefined;
  try {
    return parseBlocks(text);
  } catch {
    return undefined;
  }
}

export class EvolveBlockDecorations implements vscode.Disposable {
  // The shading is light enough to read code over; the left edge is what shows where the block is.
  private readonly shade = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor(EVOLVE_BLOCK_COLORS.background),
    borderColor: new vscode.ThemeColor(EVOLVE_BLOCK_COLORS.border),
    borderStyle: 'solid',
    borderWidth: '0 0 0 2px',
  });
  private readonly frozen = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderColor: new vscode.ThemeColor(EVOLVE_BLOCK_COLORS.frozenBorder),
    borderStyle: 'solid',
    borderWidth: '0 0 0 2px',
  });
  private readonly disposables: vscode.Disposable[] = [this.shade, this.frozen];
  /** The context key's value as last set: typing re-checks it, and sets it only when it changes. */
  private isProgram: boolean | undefined;

  constructor() {
    this.disposables.push(
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.paint(e))),
      vscode.window.onDidChangeActiveTextEditor(() => this.setContext()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        for (const editor of vscode.window.visibleTextEditors) if (editor.document === e.document) this.paint(editor);
        if (vscode.window.activeTextEditor?.document === e.document) this.setContext();
      }),
    );
    vscode.window.visibleTextEditors.forEach((e) => this.paint(e));
    this.setContext();
  }

  dispose(): void {
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }

  private paint(editor: vscode.TextEditor): void {
    const blocks = blocksOf(editor.document);
    const lines = blocks && !blocks.wholeFile ? blockLines(blocks, editor.document.lineCount) : { mutable: [], frozen: [] };
    const ranges = (xs: [number, number][]) => xs.map(([a, b]) => new vscode.Range(a - 1, 0, b - 1, 0));
    editor.setDecorations(this.shade, ranges(lines.mutable));
    editor.setDecorations(this.frozen, ranges(lines.frozen));
  }

  private setContext(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const isProgram = doc !== undefined && doc.uri.scheme === 'file' && fileKind(doc.uri.path, doc.getText()) === 'code';
    if (isProgram === this.isProgram) return;
    this.isProgram = isProgram;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.evolveBlocksOpen, isProgram);
  }
}
