/**
 * The life of one spec file's session, as vitest hooks: open it in `beforeAll` (after whatever the
 * spec starts first, such as the fake LLM server), a screenshot of the moment any test fails,
 * and in `afterAll` the session's teardown (process groups, pass or fail; the logs and run
 * journals are kept under artifacts/ when something failed), then the spec's own cleanup.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { openSession, slug, type Session, type SessionOptions } from './session';

export interface SpecSessionSetup {
  options: SessionOptions;
  /** Runs after the session is disposed (e.g. closing the fake LLM server). */
  cleanup?: () => Promise<void>;
}

/** Registers the hooks; the returned function gives the open session inside tests. */
export function useSession(setup: () => Promise<SpecSessionSetup>): () => Session {
  let session: Session | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let failed = false;
  /** What was on screen as each failed test ended, for the failure digest. */
  const notes: string[] = [];

  beforeAll(async () => {
    const s = await setup();
    cleanup = s.cleanup;
    try {
      session = await openSession(s.options);
    } catch (err) {
      await cleanup?.();
      cleanup = undefined;
      throw err;
    }
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      failed = true;
      await session?.screenshot(`failed-${slug(ctx.task.name)}`).catch(() => undefined);
      const shown = await session?.workbench.notifications.messages().catch((err: unknown) => [`(unreadable: ${String(err)})`]);
      // CI keeps only the printed log: say in words where focus was and what quick input showed.
      const focus = await session?.page
        .evaluate(() => {
          const el = document.activeElement;
          const quick = document.querySelector<HTMLElement>('.quick-input-widget');
          const open = quick !== null && quick.style.display !== 'none';
          return {
            focus: el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${el.getAttribute('aria-label') ? ` "${el.getAttribute('aria-label')}"` : ''}` : 'none',
            quickInput: open ? quick.innerText.replace(/\s+/g, ' ').slice(0, 300) || '(empty)' : 'closed',
          };
        })
        .catch((err: unknown) => ({ unreadable: String(err) }));
      notes.push(`failed: ${ctx.task.name}\n  notifications shown: ${JSON.stringify(shown ?? [])}\n  on screen: ${JSON.stringify(focus)}`);
    }
  });

  afterAll(async () => {
    try {
      await session?.dispose({ keepLogs: failed, notes });
    } finally {
      await cleanup?.();
    }
  });

  return () => {
    if (!session) throw new Error('no session: beforeAll failed to start code-server and the browser');
    return session;
  };
}
