/**
 * <ratchet-evidence-view>: why one decision went the way it did: the statistic, the proposer's
 * reasoning, the rubric in force, the parent → child diff, and the discordant items with both
 * outputs (for pairwise gates, the validator's rationale in both orders and whether they agreed).
 * Every string here came from an LLM or a file, so every one is set as text.
 */
import type { ScreenSummary } from '../../src/core/gates/screen';
import type { Evidence, EvidenceItem, JudgeView } from '../../src/protocol/webview';
import { codicon, custom, el, setChildren } from '../dom';
import { count, evidenceText, formatFactor, shortId } from '../model/format';
import type { CandidateFacts, Term } from '../model/glossary';
import { hover } from '../model/glossary';
import { gateRow } from '../../src/core/gates/gateTable';
import type { DiffView } from './diff-view';
import './diff-view';

export interface EvidenceActions {
  openCandidate(candidateId: string, as: 'text' | 'diff'): void;
}

/** Items drawn at once; the rest come in pages so a 400-item test does not stall the tab. */
const PAGE = 40;

export class EvidenceView extends HTMLElement {
  actions: EvidenceActions | undefined;
  private evidence: Evidence | undefined;
  private shown = 0;
  private itemsHost: HTMLElement | undefined;
  private moreButton: HTMLElement | undefined;

  connectedCallback(): void {
    if (this.childElementCount === 0) this.showPlaceholder('Pick a decision in the Verdicts tab to see its evidence.');
  }

  showPlaceholder(text: string): void {
    this.evidence = undefined;
    setChildren(this, [el('p', { className: 'empty', text })]);
  }

  showLoading(candidateId: string): void {
    this.evidence = undefined;
    setChildren(this, [el('p', { className: 'empty', attrs: { role: 'status' } }, [codicon('loading'), ` Loading the evidence for ${shortId(candidateId)}…`])]);
  }

  showMissing(candidateId: string, why: string): void {
    this.evidence = undefined;
    setChildren(this, [el('p', { className: 'empty', attrs: { role: 'status' }, text: `No evidence for ${shortId(candidateId)}: ${why}` })]);
  }

  get candidateId(): string | undefined {
    return this.evidence?.candidateId;
  }

  show(ev: Evidence): void {
    this.evidence = ev;
    this.shown = 0;
    const r = ev.record;
    const decision = r ? `${r.decision} (${r.reason})` : 'undecided';
    const usesEvidence = r !== undefined && (r.logWealth !== 0 || gateRow(r.gate).pace);
    const statistic = r ? (usesEvidence ? evidenceText(r.logWealth, r.threshold) : `W ${r.wins} · L ${r.losses} · T ${r.ties}`) : 'test still running';
    const facts: CandidateFacts = {
      candidateId: ev.candidateId,
      incumbentId: ev.incumbentId,
      evidence: r ? Math.exp(r.logWealth) : Number.NaN,
      threshold: r?.threshold ?? Number.NaN,
      alpha: r?.alpha,
      wins: r?.wins ?? 0,
      losses: r?.losses ?? 0,
      ties: r?.ties ?? 0,
      futile: r?.reason === 'futile',
    };
    const diff = custom<DiffView>('ratchet-diff-view');
    diff.show(ev.parentText, ev.candidateText);
    this.itemsHost = el('div', { className: 'evidence-items' });
    this.moreButton = custom('vscode-button', { attrs: { secondary: '', 'aria-label': 'Show more items' } });
    this.moreButton.addEventListener('click', () => this.appendItems());
    const openText = custom('vscode-button', { text: 'Open text', attrs: { icon: 'go-to-file', secondary: '', 'aria-label': 'Open the candidate text in an editor' } });
    openText.addEventListener('click', () => this.actions?.openCandidate(ev.candidateId, 'text'));
    const openDiff = custom('vscode-button', { text: 'Open diff', attrs: { icon: 'diff', secondary: '', 'aria-label': 'Open the parent to candidate diff in an editor' } });
    openDiff.addEventListener('click', () => this.actions?.openCandidate(ev.candidateId, 'diff'));
    setChildren(this, [
      el('div', { className: `evidence-summary decision-${r?.decision ?? 'pending'}` }, [
        el('h2', { text: `Candidate ${shortId(ev.candidateId)}: ${decision}` }),
        el('p', { className: 'evidence-facts' }, [
          `Parent ${shortId(ev.parentId)}, `,
          term(`incumbent ${shortId(ev.incumbentId)}`, 'incumbent', facts),
          `. Gate ${r?.gate ?? '—'} at `,
          term(`α = ${r?.alpha ?? '—'}`, 'alpha', facts),
          ': ',
          ...(r && usesEvidence ? [term(`evidence ×${formatFactor(facts.evidence)}`, 'evidence', facts), ...(r.threshold > 0 ? [' ', term(`(needs ×${formatFactor(r.threshold)})`, 'needs', facts)] : [])] : [statistic]),
          `; ${r?.itemsConsumed ?? 0} items used (`,
          term(`${r?.wins ?? 0} won, ${r?.losses ?? 0} lost`, 'discordant', facts),
          ', ',
          term(count(r?.ties ?? 0, 'tie'), 'tie', facts),
          r?.unjudged ? `, ${r.unjudged} left out: the judge did not answer` : '',
          ').',
        ]),
        r?.screen ? el('p', { className: 'evidence-screen', text: screenText(r.screen) }) : undefined,
        el('div', { className: 'buttons' }, [openText, openDiff]),
      ]),
      section(
        'Proposer’s reasoning',
        el('div', {}, [ev.reasoning ? el('pre', { className: 'text-block', text: ev.reasoning }) : el('p', { className: 'note', text: 'The proposer gave no reasoning.' }), thinkingBlock('The proposer model’s thinking', ev.thinking)]),
      ),
      ev.rubric
        ? section(`Rubric in force (version ${ev.rubric.version})`, el('pre', { className: 'text-block', text: ev.rubric.text }))
        : r?.rubricVersion !== undefined
          ? section('Rubric in force', el('p', { className: 'note', text: `Version ${r.rubricVersion}; its text is not in this run's events.` }))
          : undefined,
      section('Diff parent → candidate', diff),
      section(
        itemsHeading(ev),
        el('div', {}, [
          ev.items.length === 0 ? el('p', { className: 'note', text: r?.reason === 'screened' ? 'Screened out before the dev set: no dev item was used.' : 'No discordant items: every item so far was a tie.' }) : undefined,
          this.itemsHost,
          this.moreButton,
          ev.omittedItems > 0 ? el('p', { className: 'note', text: `${ev.omittedItems} more items are in the run's journal.` }) : undefined,
        ]),
      ),
    ]);
    this.appendItems();
  }

  private appendItems(): void {
    const ev = this.evidence;
    if (!ev || !this.itemsHost || !this.moreButton) return;
    const next = ev.items.slice(this.shown, this.shown + PAGE);
    for (const item of next) this.itemsHost.append(itemCard(item));
    this.shown += next.length;
    const left = ev.items.length - this.shown;
    this.moreButton.hidden = left <= 0;
    this.moreButton.textContent = `Show ${Math.min(PAGE, left)} more of ${left}`;
  }
}

function itemsHeading(ev: Evidence): string {
  const ties = ev.items.filter((i) => i.winner === 'tie').length;
  const unjudged = ev.items.filter((i) => i.winner === 'unjudged').length;
  const discordant = ev.items.length - ties - unjudged + ev.omittedItems;
  const more = [ties > 0 ? `${ties} judged in both orders without agreement (ties)` : '', unjudged > 0 ? `${unjudged} the judge did not answer for (left out, not ties)` : ''].filter(Boolean);
  return `Discordant items (${discordant})${more.length > 0 ? ` and ${more.join(' and ')}` : ''}`;
}

/**
 * A model's reasoning section, folded: it is long, it is not what was read, and it is there for a
 * user who wants to see how the model got to its answer. Nothing when the model gave none.
 */
function thinkingBlock(label: string, thinking: string | undefined): HTMLElement | undefined {
  if (thinking === undefined || thinking === '') return undefined;
  return el('details', { className: 'thinking' }, [el('summary', { text: `${label} (${count(thinking.length, 'character')}, not read for the answer)` }), el('pre', { className: 'text-block', text: thinking })]);
}

/** A statistical term with its hover: what it means for this candidate (model/glossary.ts). */
function term(text: string, name: Term, facts: CandidateFacts): HTMLElement {
  return el('span', { className: 'term', text, title: hover(name, facts) });
}

function section(title: string, body: HTMLElement): HTMLElement {
  return el('section', { className: 'evidence-section' }, [el('h3', { text: title }), body]);
}

const WINNER_TEXT: Record<EvidenceItem['winner'], string> = {
  candidate: 'candidate won',
  incumbent: 'incumbent won',
  tie: 'tie',
  unjudged: 'the judge did not answer (left out)',
};

function itemCard(item: EvidenceItem): HTMLElement {
  const agreement = item.agreed === undefined ? '' : item.agreed ? ' · both orders agreed' : ' · the two orders disagreed (counted as a tie)';
  // An unjudged item's winner text already says the judge did not answer.
  const delta = item.delta !== undefined && Math.abs(item.delta) !== 1 ? ` · Δ ${item.delta.toFixed(2)}` : '';
  return el('article', { className: `evidence-item winner-${item.winner}`, attrs: { 'aria-label': `Item ${item.itemId}: ${WINNER_TEXT[item.winner]}` } }, [
    el('h4', {}, [
      codicon(item.winner === 'candidate' ? 'arrow-up' : item.winner === 'incumbent' ? 'arrow-down' : item.winner === 'unjudged' ? 'question' : 'dash'),
      ` ${item.k !== undefined ? `#${item.k} · ` : ''}`,
      el('span', { className: 'mono', text: item.itemId }),
      ` · ${WINNER_TEXT[item.winner]}${delta}${agreement}`,
    ]),
    field('Input', item.input),
    el('div', { className: 'outputs' }, [field('Incumbent output', item.incumbentOutput), field('Candidate output', item.candidateOutput)]),
    item.childFirst || item.parentFirst ? el('div', { className: 'outputs' }, [judge('Validator, candidate in slot A', item.childFirst), judge('Validator, parent in slot A', item.parentFirst)]) : undefined,
  ]);
}

function field(label: string, text: string | undefined): HTMLElement {
  return el('div', { className: 'field' }, [el('div', { className: 'field-label', text: label }), text === undefined ? el('p', { className: 'note', text: 'not recorded' }) : el('pre', { className: 'text-block', text })]);
}

const PREFERS: Record<JudgeView['winner'], string> = {
  child: 'prefers the candidate',
  parent: 'prefers the parent',
  tie: 'prefers neither',
  abstained: 'did not answer, asked twice',
};

function judge(label: string, view: JudgeView | undefined): HTMLElement {
  if (!view) return field(label, undefined);
  return el('div', { className: `field${view.winner === 'abstained' ? ' abstained' : ''}` }, [
    el('div', { className: 'field-label', text: `${label}: ${PREFERS[view.winner]}` }),
    view.problem === undefined ? undefined : el('p', { className: 'note', text: view.problem }),
    view.rationale === undefined || view.rationale === '' ? el('p', { className: 'note', text: 'no rationale recorded' }) : el('pre', { className: 'text-block', text: view.rationale }),
    thinkingBlock('The judge’s thinking', view.thinking),
  ]);
}

customElements.define('ratchet-evidence-view', EvidenceView);

/** The run-level default's first check, in words (core/gates/screen.ts). */
function screenText(s: ScreenSummary): string {
  const unanswered = s.abstained > 0 ? `, ${s.abstained} the judge left unanswered` : '';
  const what = `First check on feedback items: ${s.wins} won, ${s.losses} lost, ${count(s.ties, 'tie')}${unanswered} over ${count(s.items, 'item')}`;
  return s.verdict === 'drop' ? `${what}; screened out, so no dev item and none of the run's α was used.` : `${what}; it went on to the dev set.`;
}
