/** The switch «Показать публичные …» of the goals and the conversions pages, remembered per user. */
import { readStored, writeStored } from '../lib/browser';
import { DEMO_PROJECT_ID } from './project';

/** A user's switch: read on a project, written for every project. */
export interface ShowCommonSwitch {
  /** The switch of a user (0: nobody logged in); unset, it is on for the demo project, whose goals and conversions are public. */
  read(userId: number, projectId: string): boolean;
  write(userId: number, value: boolean): void;
}

/** The switch stored under `key` as `{"<user id>": true}` (spec 002 §2, §5). */
export function showCommonSwitch(key: string): ShowCommonSwitch {
  const stored = (): Record<string, boolean> => {
    try {
      const parsed: unknown = JSON.parse(readStored(key) ?? '{}');
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, boolean>) : {};
    } catch {
      return {};
    }
  };
  return {
    read: (userId, projectId) => {
      const value = stored()[String(userId)];
      return typeof value === 'boolean' ? value : projectId === String(DEMO_PROJECT_ID);
    },
    write: (userId, value) => writeStored(key, JSON.stringify({ ...stored(), [String(userId)]: value })),
  };
}
