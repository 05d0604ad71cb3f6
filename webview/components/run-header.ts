/**
 * <ratchet-run-header>: what is running (target, gate, α, mode, status), what a commit guarantees
 * (for the whole run or per candidate), what it waits for (a rate limit, a backoff), how much of
 * its budget it has used, and Cancel / Resume. The buttons only ask: the host forwards the
 * request. Every line wraps, so from 320 px up nothing leaves the frame.
 */
import type { RunListEntry } from '../../src/protocol/webview';
import { custom, el, icon, setChildren, setText } from '../dom';
import { GLOSSARY } from '../model/glossary';
import { runPickerLabel } from '../model/header';
import type { HeaderModel } from '../model/header';

export interface RunHeaderActions {
  cancel(): void;
  resume(): void;
  selectRun(runId: string): void;
  /** The "How Ratchet decides" link. */
  openDocs(): void;
}

const STATUS_ICON: Record<HeaderModel['status'], string> = {
  pending: 'watch',
  running: 'sync',
  finished: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
};

export class RunHeader extends HTMLElement {
  actions: RunHeaderActions | undefined;
  private readonly target = el('h1', { className: 'run-target' });
  private readonly statusIcon = icon('watch');
  private readonly status = el('span', { className: 'run-status', attrs: { role: 'status', 'aria-live': 'polite' } });
  // A timer region is not announced on every tick (its aria-live is off): a countdown repainted each
  // second would otherwise drown a screen reader; the words are there when the user reads the header.
  private readonly waiting = el('span', { className: 'run-waiting', attrs: { role: 'timer' } });
  private readonly facts = el('div', { className: 'run-facts' });
  private readonly meters = el('div', { className: 'run-meters', attrs: { 'aria-label': 'Budget used' } });
  private readonly models = el('div', { className: 'run-models', attrs: { title: 'The model each role calls, and the setting or run spec line that chose it' } });
  private readonly guarantee = el('div', {
    className: 'run-guarantee',
    attrs: { title: "What the gate's schedule (gate.schedule) bounds: the chance of committing an edit that is not truly better, for this whole run or for each candidate" },
  });
  private readonly estimate = el('span', { className: 'run-estimate', attrs: { title: 'What the run expects to spend at most, said before its first call' } });
  private readonly progress = custom<HTMLElement & { value?: number; max: number }>('vscode-progress-bar', {
    attrs: { 'aria-label': 'Budget used', max: '100' },
  });
  private readonly warning = el('div', { className: 'run-warning', attrs: { role: 'alert' } });
  private readonly judge = el('div', { className: 'run-judge', attrs: { role: 'note', 'data-part': 'judge' } });
  private readonly report = el('div', { className: 'run-report', attrs: { role: 'note' } });
  private readonly runPicker = el('select', { className: 'run-picker', attrs: { 'aria-label': 'Run' } });
  private readonly cancelButton = custom<HTMLElement & { disabled: boolean }>('vscode-button', {
    text: 'Cancel',
    attrs: { icon: 'debug-stop', secondary: '', 'aria-label': 'Cancel the run', 'data-action': 'cancel' },
  });
  private readonly resumeButton = custom<HTMLElement & { disabled: boolean }>('vscode-button', {
    text: 'Resume',
    attrs: { icon: 'debug-continue', 'aria-label': 'Resume the run from its journal', 'data-action': 'resume' },
  });
  /**
   * The buttons' hovers sit on a wrapper: a disabled <vscode-button> takes no pointer events, so a
   * tooltip on the button itself would never show the reason it is disabled.
   */
  private readonly cancelSlot = el('span', { className: 'button-slot' }, [this.cancelButton]);
  private readonly resumeSlot = el('span', { className: 'button-slot' }, [this.resumeButton]);
  private readonly docsLink = el('a', {
    className: 'docs-link',
    text: 'How Ratchet decides',
    attrs: { href: '#', title: 'Candidates, paired tests, evidence and the 1/α line, in plain words (opens beside the panel)' },
  });
  private runIds: string[] = [];
  private runLabels: string[] = [];

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.setAttribute('role', 'banner');
    this.cancelButton.addEventListener('click', () => {
      if (!this.cancelButton.disabled) this.actions?.cancel();
    });
    this.resumeButton.addEventListener('click', () => {
      if (!this.resumeButton.disabled) this.actions?.resume();
    });
    this.docsLink.addEventListener('click', (e) => {
      e.preventDefault();
      this.actions?.openDocs();
    });
    this.runPicker.addEventListener('change', () => {
      const id = this.runIds[this.runPicker.selectedIndex];
      if (id !== undefined) this.actions?.selectRun(id);
    });
    // Until the first state comes (a reloaded window's panel is drawn before the extension has sent
    // it): nothing a state would take back — no empty warning box, no Resume drawn as the thing to press.
    for (const part of [this.waiting, this.guarantee, this.models, this.estimate, this.progress, this.warning, this.judge, this.report]) part.hidden = true;
    this.cancelButton.disabled = true;
    this.resumeButton.disabled = true;
    this.resumeButton.toggleAttribute('secondary', true);
    this.runPicker.hidden = true;
    this.append(
      el('div', { className: 'run-title' }, [this.statusIcon, this.target, this.status, this.waiting]),
      el('div', { className: 'run-line' }, [this.facts, el('div', { className: 'run-buttons' }, [this.runPicker, this.cancelSlot, this.resumeSlot])]),
      this.guarantee,
      this.models,
      el('div', { className: 'run-line' }, [this.meters, this.estimate]),
      this.progress,
      this.warning,
      this.judge,
      this.report,
    );
  }

  update(model: HeaderModel, runs: readonly RunListEntry[], selectedRunId: string | undefined): void {
    this.connectedCallback();
    setText(this.target, model.target);
    this.target.title = model.targetPath;
    // A running run that only waits for the user's answer rings the bell the status bar shows.
    this.statusIcon.setAttribute('name', model.status === 'running' && !model.working ? 'bell' : STATUS_ICON[model.status]);
    this.statusIcon.toggleAttribute('spin', model.working);
    this.status.className = `run-status status-${model.status}`;
    setText(this.status, model.statusText);
    this.waiting.hidden = model.waiting === undefined;
    this.waiting.title = model.waiting?.detail ?? '';
    setChildren(this.waiting, model.waiting === undefined ? [] : [icon('watch'), ' ', model.waiting.text]);
    setChildren(this.facts, model.gated ? [fact('gate', model.gate), fact('α', model.alpha.replace(/^α = /, ''), GLOSSARY.alpha.means), fact('mode', model.mode), this.docsLink] : []);
    setChildren(
      this.meters,
      model.meters.map((m) => el('span', { className: 'meter', attrs: { 'data-meter': m.name } }, [el('span', { className: 'meter-name', text: m.name }), ` ${m.used}${m.limit !== undefined ? ` / ${m.limit}` : ''}`])),
    );
    this.progress.hidden = model.progress === undefined;
    if (model.progress !== undefined) {
      const pct = Math.round(model.progress * 100);
      this.progress.value = pct;
      this.progress.setAttribute('aria-label', `Budget used: ${pct}%`);
    }
    this.warning.hidden = model.warning === undefined;
    setChildren(this.warning, model.warning === undefined ? [] : [icon('warning'), ' ', model.warning]);
    this.judge.hidden = model.judge === undefined;
    setChildren(this.judge, model.judge === undefined ? [] : [icon('question'), ' ', model.judge]);
    this.report.hidden = model.testReport === undefined;
    setChildren(this.report, model.testReport === undefined ? [] : [icon('beaker'), ' ', model.testReport]);
    this.guarantee.hidden = model.guarantee === undefined;
    setChildren(this.guarantee, model.guarantee === undefined ? [] : [el('span', { className: 'meter-name', text: 'guarantee' }), ` ${model.guarantee}`]);
    this.models.hidden = model.models === undefined;
    setChildren(this.models, model.models === undefined ? [] : [el('span', { className: 'meter-name', text: 'models' }), ` ${model.models}`]);
    this.estimate.hidden = model.estimate === undefined;
    setChildren(this.estimate, model.estimate === undefined ? [] : [el('span', { className: 'meter-name', text: 'estimate' }), ` ${model.estimate}`]);
    this.cancelButton.disabled = !model.canCancel;
    this.resumeButton.disabled = !model.canResume;
    // Drawn as the primary action only when it can be taken: a disabled primary button still
    // reads as the thing to press, most of all on light themes.
    this.resumeButton.toggleAttribute('secondary', !model.canResume);
    this.cancelSlot.title = model.cancelTitle;
    this.resumeSlot.title = model.resumeTitle;
    this.updateRunPicker(runs, selectedRunId);
  }

  private updateRunPicker(runs: readonly RunListEntry[], selectedRunId: string | undefined): void {
    this.runPicker.hidden = runs.length < 2;
    const ids = runs.map((r) => r.runId);
    const labels = runs.map(runPickerLabel);
    // Rebuilt when a label changes too: a run that ends or is interrupted says so in the picker.
    if (ids.join('\n') !== this.runIds.join('\n') || labels.join('\n') !== this.runLabels.join('\n')) {
      this.runIds = ids;
      this.runLabels = labels;
      setChildren(
        this.runPicker,
        labels.map((text) => el('option', { text })),
      );
    }
    const index = selectedRunId === undefined ? -1 : ids.indexOf(selectedRunId);
    if (index >= 0) this.runPicker.selectedIndex = index;
    // A narrow panel cuts the picker's text: its hover says the whole of it.
    this.runPicker.title = index >= 0 ? (labels[index] ?? '') : '';
  }
}

function fact(name: string, value: string, title?: string): HTMLElement {
  return el('span', { className: 'fact', ...(title !== undefined ? { title } : {}) }, [el('span', { className: 'fact-name', text: name }), ' ', el('span', { className: 'fact-value', text: value })]);
}

customElements.define('ratchet-run-header', RunHeader);
