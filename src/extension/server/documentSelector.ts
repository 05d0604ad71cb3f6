/**
 * The files the server answers for, on disk: prompt files and run specs that are Ratchet's by name,
 * and source files that may hold EVOLVE-BLOCK markers. Apart from client.ts, so the extension's own
 * bundle has it without loading the client library (lazyClient.ts).
 */
import { BY_NAME_GLOBS, PROGRAM_GLOB } from '../../core/files/fileKinds';

export const DOCUMENT_SELECTOR = [...BY_NAME_GLOBS, PROGRAM_GLOB].map((pattern) => ({ scheme: 'file', pattern }));
