// Colours for the review TUI, or none at all when NO_COLOR is set (markers like [x] and > carry the meaning either way).
import { createContext, useContext } from 'react';

export interface Theme {
  removed?: string;
  added?: string;
  hunk?: string;
  accent?: string;
  error?: string;
  ok?: string;
  /** Dim rejected lines and secondary text (a style, not a colour, but NO_COLOR turns it off too). */
  dim: boolean;
  /** Highlight the cursor row with reverse video. */
  inverse: boolean;
}

export const COLOR_THEME: Theme = { removed: 'red', added: 'green', hunk: 'cyan', accent: 'yellow', error: 'red', ok: 'green', dim: true, inverse: true };
export const PLAIN_THEME: Theme = { dim: false, inverse: false };

/** https://no-color.org: any non-empty NO_COLOR turns colour off. */
export function themeFor(env: NodeJS.ProcessEnv): Theme {
  return env['NO_COLOR'] ? PLAIN_THEME : COLOR_THEME;
}

export const ThemeContext = createContext<Theme>(COLOR_THEME);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
