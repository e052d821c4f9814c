// execa, loaded on first use: its ~40 modules cost every command's start ~5 ms, and most commands run nothing through it.
import type { execa as Execa } from 'execa';

export async function loadExeca(): Promise<typeof Execa> {
  return (await import('execa')).execa;
}
